/**
 * One voice in the forms and small answers: the wallet picker says what to do, an empty amount
 * says what it means with the figure it would send, an unfreeze vote reads as the choice made,
 * a footer says something, and every command's usage hint lists every subcommand and help.
 */
import { readFileSync } from 'node:fs';
import type { KnownBlock, View } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { balanceBlocks } from '../../../src/adapters/slack/blocks/balance.js';
import { unfreezeCardBlocks } from '../../../src/adapters/slack/blocks/freeze.js';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';
import { readableTexts } from '../../support/block-texts.js';

const WALLETS = [{ alias: 'ops', id: 'wal_ops_7f3a' }];
const texts = (v: View | KnownBlock[]) =>
  JSON.stringify(Array.isArray(v) ? v : v.blocks)
    .replace(/\\"/g, '"')
    .replace(/\\u2019/g, '’');

describe('the request form', () => {
  it('asks to choose a wallet and shows the figure an empty amount would send', () => {
    const view = requestModal(
      { kind: 'transfer', channel: 'C1', prefill: { wallet: 'ops', asset: 'arbitrum:usdt' } },
      WALLETS,
      { wallet: 'ops', asset: 'arbitrum:usdt' },
      [{ id: 'arbitrum:usdt', note: '29,500.25 available', available: '29,500.25' }],
    );
    const all = texts(view);
    expect(all).toContain('"placeholder":{"type":"plain_text","text":"Choose a wallet"');
    expect(all).toContain('or send the entire available balance (29,500.25 USDT)');
    expect(all).toContain('"text":"Amount"');
  });
});

describe('the unfreeze card', () => {
  it('records a vote as “unfreeze ✓”, never “release”', () => {
    const blocks = unfreezeCardBlocks({
      proposal: { id: 'u1', by: 'U0AYO', at: Date.UTC(2026, 10, 28, 9), votes: { U0AYO: 'unfreeze' } },
      freeze: undefined,
      held: [],
      required: 2,
    });
    const all = readableTexts(blocks).join('\n');
    expect(all).toContain('<@U0AYO>: unfreeze ✓');
    expect(all).not.toContain('release');
  });
});

describe('footers and usage hints', () => {
  it('the balance footer says when it was fetched, not how many chains exist', () => {
    expect(texts(balanceBlocks([], Date.UTC(2026, 10, 28, 9), []))).not.toContain('supported');
  });

  it('every slash command’s hint ends with help; /beneficiary lists register', () => {
    const manifest = parse(readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8')) as {
      features: { slash_commands: { command: string; usage_hint: string }[] };
    };
    for (const c of manifest.features.slash_commands) expect(c.usage_hint, c.command).toMatch(/help\]?$/);
    const beneficiary = manifest.features.slash_commands.find((c) => c.command === '/beneficiary');
    expect(beneficiary?.usage_hint).toBe('new | register | list | help');
  });
});
