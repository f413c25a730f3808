/**
 * The second opinion's rule and sentence (SCREENING_URL), and its settings: an identification
 * refuses, naming only its category and name; no answer refuses unless SCREENING_ON_ERROR=allow;
 * the service's URL must be https outside development and tests.
 */
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/config.js';
import { parseScreening } from '../../../src/config-screening.js';
import { secondOpinionRule, secondOpinionSentence } from '../../../src/domain/rules/second-opinion.js';

const identified = {
  kind: 'answered' as const,
  identifications: [{ category: 'sanctions', name: 'SANCTIONS: OFAC SDN Example 2026-11-20' }],
};

describe('secondOpinionRule', () => {
  it('refuses an identification and passes an empty answer, whatever SCREENING_ON_ERROR says', () => {
    for (const onError of ['refuse', 'allow'] as const) {
      expect(secondOpinionRule(identified, onError)).toEqual({ ok: false, code: 'screening_identified' });
      expect(secondOpinionRule({ kind: 'answered', identifications: [] }, onError)).toEqual({ ok: true });
    }
  });

  it('refuses no answer unless SCREENING_ON_ERROR=allow', () => {
    expect(secondOpinionRule({ kind: 'unanswered' }, 'refuse')).toEqual({ ok: false, code: 'screening_unanswered' });
    expect(secondOpinionRule({ kind: 'unanswered' }, 'allow')).toEqual({ ok: true });
  });

  it('names the category and name only', () => {
    expect(secondOpinionSentence('screening_identified', identified)).toBe(
      'The screening service identifies this address (sanctions: SANCTIONS: OFAC SDN Example 2026-11-20), so Rampart will not pay it; check the destination with compliance.',
    );
  });
});

describe('SCREENING_URL settings', () => {
  const parse = (env: Record<string, string>) => {
    const problems: string[] = [];
    const config = parseScreening(env, parseDuration, problems);
    return { config, problems };
  };

  it('reads the URL, key, cache and on-error, with their defaults', () => {
    expect(parse({ NODE_ENV: 'production', SCREENING_URL: 'https://s.example/api/v1/' }).config.service).toEqual({
      url: 'https://s.example/api/v1',
      apiKey: undefined,
      cacheMs: 86_400_000,
      onError: 'refuse',
    });
    const set = parse({
      NODE_ENV: 'production',
      SCREENING_URL: 'https://s.example',
      SCREENING_URL_KEY: 'k',
      SCREENING_URL_CACHE: '1h',
      SCREENING_ON_ERROR: 'allow',
    });
    expect(set.config.service).toEqual({ url: 'https://s.example', apiKey: 'k', cacheMs: 3_600_000, onError: 'allow' });
    expect(parse({}).config.service).toBeUndefined();
  });

  it('refuses plain http in production, and an on-error that is neither refuse nor allow', () => {
    expect(parse({ NODE_ENV: 'production', SCREENING_URL: 'http://s.example' }).problems).toEqual([
      'SCREENING_URL must be an https:// URL, such as https://public.chainalysis.com/api/v1',
    ]);
    expect(parse({ NODE_ENV: 'test', SCREENING_URL: 'http://127.0.0.1:1' }).problems).toEqual([]);
    expect(parse({ SCREENING_URL: 'https://s.example', SCREENING_ON_ERROR: 'maybe' }).problems).toEqual([
      'SCREENING_ON_ERROR must be refuse or allow (default refuse), not "maybe"',
    ]);
  });
});
