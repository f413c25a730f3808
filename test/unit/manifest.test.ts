import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../../src/domain/slack-scopes.js';

// Slack's published schema (slackapi/manifest-schema, MIT), vendored: see fixtures/slack-manifest-schema/README.md.
const schemaUrl = new URL('../fixtures/slack-manifest-schema/manifest.schema.1.0.0.json', import.meta.url);
const manifestUrl = new URL('../../manifest.yml', import.meta.url);

const EVENTS_URL = /^https:\/\/[^/]+\/slack\/events$/;

function validator() {
  // strictTypes off: Slack's schema has `minItems` without `type: array` in parts we do not use.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  ajv.addKeyword('_note'); // a comment in Slack's schema, no constraint
  // The schema says `regex` where JSON Schema says `pattern` (background_color); enforce it as meant.
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    errors: false,
    validate: (pattern: string, data: string) => new RegExp(pattern).test(data),
  });
  return ajv.compile(JSON.parse(readFileSync(schemaUrl, 'utf8')));
}

type Manifest = {
  features: { slash_commands: { command: string; url: string; usage_hint?: string }[] };
  oauth_config: { scopes: { bot: string[] } };
  settings: Record<string, unknown>;
};

const manifest = parse(readFileSync(manifestUrl, 'utf8')) as Manifest;

function urlsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) urlsIn(v, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key.endsWith('url') && typeof v === 'string') found.push(v);
      else urlsIn(v, found);
    }
  }
  return found;
}

describe('manifest.yml', () => {
  const validate = validator();

  it("is valid against Slack's manifest schema 1.0.0", () => {
    expect(validate(manifest) ? [] : validate.errors).toEqual([]);
  });

  it('would be refused by the schema if it were wrong (the check is not vacuous)', () => {
    const broken = structuredClone(manifest) as Manifest & { display_information: Record<string, unknown> };
    broken.display_information.background_color = 'blue';
    broken.settings.unknown_setting = true;
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.keyword).sort()).toEqual(['additionalProperties', 'regex']);
  });

  it('declares every command Rampart answers, with usage hints', () => {
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => [c.command, c.usage_hint])).toEqual([
      ['/balance', '[wallet] | help'],
      ['/rate', '[currency] | help'],
      ['/lookup', '<bank_code> <account_number> | help'],
      ['/transfer', '[amount asset to address from wallet for reason] | help'],
      ['/offramp', '[amount asset from wallet for reason] | help'],
      ['/identity', 'new | <identity_id> | list | help'],
      ['/beneficiary', 'new | register | list | help'],
      ['/addresses', '[list] | add | help'],
      ['/schedules', '[list] | help'],
      ['/freeze', '[reason] | help'],
      ['/unfreeze', '[help]'],
      ['/resolve', 'R-1234.1 [paid <hash or reference> | not-paid <why>] | help'],
      ['/batch', 'template | help'],
      ['/passkey', '[help]'],
      ['/report', '[7d|30d] [post] | help'],
    ]);
  });

  it('sends every request to /slack/events', () => {
    const urls = urlsIn(manifest);
    expect(urls).toHaveLength(18);
    for (const url of urls) expect(url).toMatch(EVENTS_URL);
  });

  it('asks for exactly the bot scopes Rampart uses (src/domain/slack-scopes.ts, which doctor checks)', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual([...BOT_SCOPES]);
  });
});
