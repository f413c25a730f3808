/**
 * The passkey page is the last check before signing: it must say what the approval card says.
 * A card and its page are built for the same request and compared: every figure, the full
 * address, the names of wallets, chains and people, the policy sentence and the hash, whose
 * first 10 characters on the card are those of the hash the passkey signs.
 */
import { describe, expect, it } from 'vitest';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { recordPageHtml } from '../../../src/adapters/web/pages.js';
import { stepUpHash } from '../../../src/app/step-up-subject.js';
import { approvalHashOf, cardHash } from '../../../src/domain/approval.js';
import { CHAINS } from '../../../src/domain/assets.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { fullAddress } from '../../../src/presenters/address.js';
import { buildRecord, RECEIVER_EVM } from '../../support/factories.js';

const NAMES = new Map([
  ['U0REQUESTER', 'Ada Obi'],
  ['U0APPROVER1', 'Bola Ade'],
]);
const noStore = { executions: { page: async () => [] } } as unknown as Parameters<typeof stepUpHash>[0];

/** A pending transfer as submission seals it today: the card's hash is the approvalHash's first 10. */
function pending(display: Partial<RequestRecord['sealed']['display']> = {}): RequestRecord {
  const r = buildRecord('pending', 'transfer');
  const call = {
    kind: 'transfer' as const,
    body: {
      ...(r.sealed.call.body as { wallet_id: string; amount: number; receiver: string }),
      asset: 'ethereum:usdc',
    },
  } as RequestRecord['sealed']['call'];
  const sealed = {
    ...r.sealed,
    call,
    display: { ...r.sealed.display, chain: 'ethereum', ...display },
    hash: cardHash(approvalHashOf([call])),
  };
  return { ...r, sealed, votes: [{ user: 'U0APPROVER1', at: r.sealed.createdAt }] };
}

/** What Slack shows of the card: mentions as names, links and dates as their labels. */
function cardText(record: RequestRecord): string {
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'actions') return;
      if ((o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string') texts.push(o.text);
      else Object.values(o).forEach(walk);
    }
  };
  walk(requestCardBlocks(record));
  return texts
    .join('\n')
    .replace(/<@(U\w+)>/g, (_, id: string) => NAMES.get(id) ?? id)
    .replace(/<[^<>|]*\|([^<>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const pageText = (html: string): string =>
  html
    .replace(/<br>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function both(record: RequestRecord) {
  const full = await stepUpHash(noStore, record);
  if (!full) throw new Error('no hash');
  const html = recordPageHtml({
    purpose: 'approve',
    record,
    approver: 'U0APPROVER1',
    approvalHash: full,
    names: NAMES,
  });
  return { card: cardText(record), page: pageText(html), full };
}

const figures = (text: string): string[] => [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => m[0]);

describe('the passkey page and the card', () => {
  it('show the same figures, the full address, the policy sentence and the same hash', async () => {
    const record = pending();
    const { card, page, full } = await both(record);
    for (const figure of figures(card)) expect(page, `figure ${figure}`).toContain(figure);
    expect(card).toContain('1,250.50');
    expect(page).toContain(fullAddress(RECEIVER_EVM)); // every character, grouped in fours
    expect(page).toContain(record.sealed.rule);
    expect(page).toContain(CHAINS.ethereum.name);
    // One hash: the card's 10 characters are the first of the hash the passkey signs, shown first.
    expect(full.slice(0, 10)).toBe(record.sealed.hash);
    expect(card).toContain(`Sealed request hash \`${record.sealed.hash}\``);
    expect(page).toMatch(new RegExp(`Sealed request hash\\s+${record.sealed.hash}`));
    expect(page.indexOf(full)).toBeGreaterThan(page.indexOf(`${record.sealed.hash} `));
    expect(page).toContain('Not what you expected? Deny it on the card.');
  });

  it('names people as Slack shows them, never by their ids', async () => {
    const { card, page } = await both(pending());
    expect(card).toContain('Ada Obi');
    expect(page).toContain('Ada Obi');
    expect(page).toContain('Bola Ade');
    expect(page).not.toMatch(/U0REQUESTER|U0APPROVER1/);
  });

  it('names an own wallet as the card does, and says "never paid" only where the card does', async () => {
    const own = await both(pending({ ownWallet: 'treasury', newReceiver: true }));
    expect(own.card).toContain('treasury (own wallet)');
    expect(own.page).toContain('treasury (own wallet)');
    expect(own.page).not.toMatch(/never paid/i);
    const fresh = await both(pending({ newReceiver: true }));
    expect(fresh.card).toContain('Rampart has never paid this address before');
    expect(fresh.page).toContain('Rampart has never paid this address before');
  });

  it('lists every run date of a series, which the hash its passkey signs covers', async () => {
    const base = pending();
    const runs = [Date.UTC(2026, 11, 1, 8), Date.UTC(2027, 0, 1, 8), Date.UTC(2027, 1, 1, 8)];
    const schedule = {
      every: { unit: 'month' as const, day: 1 },
      at: '09:00',
      zone: 'Africa/Lagos',
      ends: { after: 3 },
      runs,
    };
    const sealed = { ...base.sealed, schedule, hash: cardHash(approvalHashOf([base.sealed.call], undefined, runs)) };
    const { page, full } = await both({ ...base, shape: 'series', sealed, executionCount: 0, executions: [] });
    expect(full.slice(0, 10)).toBe(sealed.hash);
    expect(page).toContain('Its 3 run dates (Africa/Lagos)');
    for (const date of ['2026-12-01 09:00', '2027-01-01 09:00', '2027-02-01 09:00']) expect(page).toContain(date);
    expect(page).toContain('Rampart runs exactly this call on these dates.');
  });
});
