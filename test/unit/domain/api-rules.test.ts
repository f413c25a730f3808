/** What an API key may do, as rules: standing, scope, rate, freeze, new destinations, batch totals, reads and cancels. */
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/domain/api-key.js';
import {
  batchKeyLimitRefusal,
  freezeOutcome,
  keyActor,
  keyCancelOutcome,
  keyStanding,
  listOwner,
  newDestinationOutcome,
  ownerStanding,
  rateOutcome,
  readableBy,
  scopeOutcome,
} from '../../../src/domain/api-rules.js';
import type { RequestRecord } from '../../../src/domain/request.js';

const NOW = 1_800_000_000_000;
const key = (over: Partial<ApiKey> = {}, limits: Partial<ApiKey['limits']> = {}): ApiKey => ({
  id: 'k1',
  name: 'erp',
  owner: 'U1',
  scopes: ['requests:create', 'requests:read'],
  limits: { maxOpen: 20, allowNewDestinations: false, ...limits },
  createdAt: NOW - 1000,
  expiresAt: NOW + 1000,
  revokedAt: undefined,
  lastUsedAt: undefined,
  ...over,
});
/** Only the fields the read and cancel rules look at. */
const made = (viaApi: { keyId: string; owner: string } | undefined): RequestRecord =>
  ({ sealed: { display: viaApi ? { viaApi: { ...viaApi, keyName: 'x' } } : {} } }) as unknown as RequestRecord;

describe('keyActor', () => {
  it('acts as the key’s owner through the API door, naming the key, with the key’s record for its rules', () => {
    expect(keyActor(key())).toEqual({
      via: 'api',
      user: 'U1',
      key: { keyId: 'k1', keyName: 'erp', owner: 'U1' },
      apiKey: key(),
    });
  });
});

describe('keyStanding and ownerStanding', () => {
  it('allows an active key and refuses an unknown, revoked or expired one with the one code unauthorized', () => {
    expect(keyStanding(key(), NOW)).toEqual({ ok: true, key: key() });
    expect(keyStanding(undefined, NOW)).toEqual({ ok: false, code: 'unauthorized', reason: 'unknown_token' });
    expect(keyStanding(key({ revokedAt: NOW - 1 }), NOW)).toMatchObject({ code: 'unauthorized', reason: 'revoked' });
    expect(keyStanding(key({ expiresAt: NOW }), NOW)).toMatchObject({ code: 'unauthorized', reason: 'expired' });
    expect(ownerStanding(key(), true).ok).toBe(true);
    expect(ownerStanding(key(), false)).toEqual({ ok: false, code: 'unauthorized', reason: 'owner_inactive' });
  });
});

describe('scopeOutcome and rateOutcome', () => {
  it('refuses a missing scope with missing_scope; requests:read:all covers requests:read', () => {
    expect(scopeOutcome(key(), 'requests:create')).toEqual({ ok: true });
    expect(scopeOutcome(key({ scopes: ['requests:read'] }), 'requests:create')).toEqual({
      ok: false,
      code: 'missing_scope',
      scope: 'requests:create',
      message: 'API key erp lacks the requests:create scope; ask for a key that has it.',
    });
    expect(scopeOutcome(key({ scopes: ['requests:read:all'] }), 'requests:read').ok).toBe(true);
  });

  it('refuses while the limiter says wait, with rate_limited and the wait', () => {
    expect(rateOutcome(key(), 0)).toEqual({ ok: true });
    expect(rateOutcome(key(), 1500)).toMatchObject({ ok: false, code: 'rate_limited', retryAfterMs: 1500 });
  });
});

describe('freezeOutcome', () => {
  it('refuses every new payment while frozen, with frozen', () => {
    expect(freezeOutcome(undefined)).toEqual({ ok: true });
    expect(freezeOutcome({ by: 'U9', at: NOW, reason: 'incident' })).toEqual({
      ok: false,
      code: 'frozen',
      message: 'Rampart is frozen by an operator; no new payments are taken until it is unfrozen.',
    });
  });
});

describe('newDestinationOutcome', () => {
  it('refuses an address never paid for a key without --allow-new-destinations, naming the rows of a batch', () => {
    expect(newDestinationOutcome(key(), [{ known: true }])).toEqual({ ok: true });
    expect(newDestinationOutcome(key({}, { allowNewDestinations: true }), [{ known: false }])).toEqual({ ok: true });
    expect(newDestinationOutcome(key(), [{ known: false }])).toEqual({
      ok: false,
      code: 'new_destination_not_allowed',
      rows: [],
      message:
        'API key erp may pay only addresses Rampart has paid before; request this one in Slack, or use a key created with --allow-new-destinations.',
      detail: 'Rampart has never paid this address.',
    });
    const batch = newDestinationOutcome(key(), [
      { row: 1, known: true },
      { row: 2, known: false },
      { row: 3, known: false },
    ]);
    expect(batch).toMatchObject({ ok: false, code: 'new_destination_not_allowed', rows: [2, 3] });
    expect(batch.ok ? '' : batch.message).toContain('and rows 2 and 3 pay a new one;');
    const one = newDestinationOutcome(key(), [{ row: 4, known: false }]);
    expect(one.ok ? '' : one.message).toContain('and row 4 pays a new one;');
  });
});

describe('batchKeyLimitRefusal', () => {
  const usdc = { wallet: 'ops', asset: 'base:usdc' };
  it('holds --max-amount to the batch total and names the total', () => {
    const capped = key({}, { maxAmount: '100' });
    expect(batchKeyLimitRefusal(capped, { ...usdc, total: { units: 100_000_000n, decimals: 6 } })).toBeUndefined();
    const over = batchKeyLimitRefusal(capped, { ...usdc, total: { units: 100_000_001n, decimals: 6 } });
    expect(over).toMatchObject({ code: 'amount_over_key_limit', field: 'amount' });
    expect(over?.message).toBe(
      "This batch's total, 100.000001, is over what API key erp may request at once (100); split the batch or ask an approver to request it in Slack.",
    );
  });

  it('passes the key’s other limits through as they are', () => {
    const walletBound = key({}, { wallets: ['treasury'] });
    expect(batchKeyLimitRefusal(walletBound, { ...usdc, total: { units: 1n, decimals: 6 } })).toMatchObject({
      code: 'wallet_not_allowed',
      field: 'wallet',
    });
  });
});

describe('readableBy, listOwner and keyCancelOutcome', () => {
  it('reads what the owner’s keys made; requests:read:all reads any', () => {
    expect(readableBy(key(), made({ keyId: 'k2', owner: 'U1' }))).toBe(true);
    expect(readableBy(key(), made({ keyId: 'k2', owner: 'U2' }))).toBe(false);
    expect(readableBy(key(), made(undefined))).toBe(false);
    expect(readableBy(key({ scopes: ['requests:read:all'] }), made(undefined))).toBe(true);
    expect(listOwner(key())).toBe('U1');
    expect(listOwner(key({ scopes: ['requests:read:all'] }))).toBeUndefined();
  });

  it('lets only the key that made a request cancel it; others it can read get not_cancellable, the rest not_found', () => {
    expect(keyCancelOutcome(key(), made({ keyId: 'k1', owner: 'U1' }))).toEqual({ ok: true });
    expect(keyCancelOutcome(key(), undefined)).toEqual({ ok: false, code: 'not_found' });
    expect(keyCancelOutcome(key(), made({ keyId: 'k2', owner: 'U1' }))).toEqual({
      ok: false,
      code: 'not_cancellable',
      message: 'Only the API key that made a request may cancel it.',
    });
    expect(keyCancelOutcome(key(), made({ keyId: 'k2', owner: 'U2' }))).toEqual({ ok: false, code: 'not_found' });
    // A key that may create but not read learns nothing about requests it did not make.
    expect(keyCancelOutcome(key({ scopes: ['requests:create'] }), made({ keyId: 'k2', owner: 'U1' }))).toEqual({
      ok: false,
      code: 'not_found',
    });
  });
});
