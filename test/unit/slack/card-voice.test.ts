/**
 * One voice on the card, pinned on the blocks Slack receives, with the walk's examples: where an
 * API request's address came from, the money before the limit, spoken labels that fit by being
 * short, and a step-up Approve that says it only opens the passkey page.
 */
import { describe, expect, it } from 'vitest';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { approveConfirmText, buttonLabel } from '../../../src/adapters/slack/blocks/card-summary.js';
import type { RequestRecord, SealedRequest } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord, buildSealedRequest, rileyTransfer } from '../../support/factories.js';

const texts = (r: RequestRecord) => readableTexts(requestCardBlocks(r));

/** R-1001 from the walk: 25.00 USDC on Base from ops, sent by @riley's API key "erp". */
function apiRequest(): RequestRecord {
  const walk = rileyTransfer();
  return pendingTransfer(
    { ...walk, velocityNote: 'Limit for ops: 200,000.00 USDC per 24 h. 200,000.00 left; 199,975.00 after this.' },
    { ...walk.display, viaApi: { keyId: 'a1b2c3d4e5f6', keyName: 'erp', owner: 'U0RILEY' } },
  );
}

/** A pending transfer: the factory's sealed request with `over`, its display with `display` on top. */
function pendingTransfer(over: Partial<SealedRequest>, display: Partial<SealedRequest['display']>): RequestRecord {
  const base = buildSealedRequest('transfer');
  return buildRecord('pending', 'transfer', { sealed: { ...base, ...over, display: { ...base.display, ...display } } });
}

describe('provenance', () => {
  it('an API request’s destination names the key and its owner, never “typed by”', () => {
    const card = texts(apiRequest()).join('\n');
    expect(card).toContain('_from API key erp (owner <@U0RILEY>) · EIP-55 checksum valid_');
    expect(card).not.toContain('typed by');
  });
});

describe('the money first', () => {
  it('puts the amount before the velocity sentence, which says “Limit for ops:” once', () => {
    const lines = texts(apiRequest()).join('\n').split('\n');
    const amount = lines.findIndex((l) => l.startsWith('*Amount:*'));
    const limit = lines.findIndex((l) => l.includes('Limit for ops:'));
    expect(amount).toBeGreaterThan(-1);
    expect(limit).toBeGreaterThan(amount);
    expect(lines[limit]).toBe('Limit for ops: 200,000.00 USDC per 24 h. 200,000.00 left; 199,975.00 after this.');
    expect(lines.join('\n')).not.toContain('Velocity limit');
  });
});

describe('spoken labels', () => {
  it('stay within 75 characters by being short, not cut', () => {
    const r = pendingTransfer({ id: 'R-1002' }, { amountText: '29,500.25', assetCode: 'USDT', ownWallet: 'treasury' });
    expect(buttonLabel('Approve', r.sealed)).toBe('Approve R-1002: 29,500.25 USDT, ops to treasury');
    const long = buildRecord('pending', 'offramp', {
      sealed: {
        ...buildSealedRequest('offramp'),
        id: 'R-1003',
        display: {
          ...buildSealedRequest('offramp').display,
          amountText: '13,500,000.00',
          assetCode: 'cNGN',
          walletAlias: 'operations-nigeria',
          beneficiaryLabel: 'Adaeze Chukwuemeka-Okonkwo · Guaranty Trust Bank ••••6789',
        },
      },
    });
    for (const verb of ['Approve', 'Deny']) {
      const label = buttonLabel(verb, long.sealed);
      expect(label.length).toBeLessThanOrEqual(75);
      expect(label).not.toContain('…');
      expect(label).toBe(`${verb} R-1003: 13,500,000.00 cNGN`);
    }
  });
});

describe('step-up', () => {
  it('the Approve confirmation says the click opens the passkey page and moves nothing', () => {
    const r = buildRecord('pending', 'transfer', { sealed: { ...buildSealedRequest('transfer'), stepUp: true } });
    const text = approveConfirmText(r);
    expect(text).toContain('This click opens your passkey page and moves nothing.');
    expect(text).not.toContain('it runs now');
  });
});

describe('a step-up quorum out of reach', () => {
  const stepUp = () =>
    buildRecord('pending', 'transfer', {
      sealed: { ...buildSealedRequest('transfer'), id: 'R-1006', stepUp: true, requiredApprovals: 2 },
    });
  const approvers = ['U0APPROVER1', 'U0APPROVER2', 'U0AYO', 'S0TREASURY'];

  it('says so and names who could register a passkey', () => {
    const card = readableTexts(requestCardBlocks(stepUp(), { approvers, passkeyHolders: ['U0APPROVER1'] })).join('\n');
    expect(card).toContain(
      ':warning: *This cannot reach its quorum yet:* it needs 2 more approvals with a passkey that counts, and only <@U0APPROVER1> can. <@U0APPROVER2>, <@U0AYO> could register one with /passkey (another approver approves it).',
    );
  });

  it('says nothing when enough approvers hold a passkey that counts', () => {
    const card = readableTexts(
      requestCardBlocks(stepUp(), { approvers, passkeyHolders: ['U0APPROVER1', 'U0AYO'] }),
    ).join('\n');
    expect(card).not.toContain('cannot reach its quorum');
  });
});

describe('the Approve confirmation fits Slack’s 300 characters', () => {
  it('with the full address, an own wallet, a sealed entire balance, repeats and a shortfall, nothing cut', () => {
    const r = pendingTransfer(
      { id: 'R-1002', requiredApprovals: 2 },
      {
        amountText: '13,500,000.00',
        assetCode: 'cNGN',
        chain: 'bsc',
        entireBalance: true,
        ownWallet: 'treasury-reserve',
        walletAlias: 'operations-nigeria',
        repeats: [
          { of: 'R-1001.1', state: 'unknown', at: Date.UTC(2026, 10, 28, 9) },
          { of: 'R-1000.1', state: 'succeeded', at: Date.UTC(2026, 10, 28, 8) },
        ] as never,
      },
    );
    const commitments = {
      items: [{ id: 'B-1003', units: 650_000_000_000n, status: 'running' as const }],
      decimals: 6,
      code: 'cNGN',
      availableAfter: -12_850_000_000_000n,
    };
    const blocks = requestCardBlocks(r, { commitments });
    const texts = readableTexts(blocks).filter((t) => t.startsWith('I checked'));
    expect(texts).toHaveLength(1);
    const text = texts[0] ?? '';
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text, text).not.toMatch(/…$/);
    expect(text).toContain('0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF');
    expect(text).toContain('Short by 12,850,000.00 cNGN with B-1003');
  });
});
