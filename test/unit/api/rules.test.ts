/** The HTTP API's pure parts (issue 21): token shape, key limits, nesting scan, fields, states. */
import { describe, expect, it } from 'vitest';
import { checkFields } from '../../../src/api/fields.js';
import { nestingDepth } from '../../../src/api/http-io.js';
import { type ApiKey, hasScope, keyLimitRefusal, keyState, parseToken } from '../../../src/domain/api-key.js';

const key = (over: Partial<ApiKey> = {}): ApiKey => ({
  id: 'abcdef012345',
  name: 'erp',
  owner: 'U0OWNER',
  scopes: ['requests:create'],
  limits: { maxOpen: 5, allowNewDestinations: false, wallets: ['ops'], assets: ['base:usdc'], maxAmount: '5000' },
  createdAt: 0,
  expiresAt: 1000,
  revokedAt: undefined,
  lastUsedAt: undefined,
  ...over,
});

describe('API keys', () => {
  it('reads only tokens of the rmp_ shape', () => {
    expect(parseToken(`rmp_abcdef012345_${'A'.repeat(43)}`)).toEqual({ id: 'abcdef012345' });
    expect(parseToken(`rmp_abcdef012345_${'A'.repeat(42)}`)).toBeUndefined();
    expect(parseToken('Bearer x')).toBeUndefined();
  });

  it('is revoked, expired or active', () => {
    expect(keyState(key(), 999)).toBe('active');
    expect(keyState(key(), 1000)).toBe('expired');
    expect(keyState(key({ revokedAt: 5 }), 10)).toBe('revoked');
    expect(keyState(key({ expiresAt: undefined }), 1e15)).toBe('active');
  });

  it('reads with requests:read:all as with requests:read', () => {
    expect(hasScope(key({ scopes: ['requests:read:all'] }), 'requests:read')).toBe(true);
    expect(hasScope(key(), 'requests:read')).toBe(false);
  });

  it('refuses by its wallets, assets and maximum, comparing exact amounts', () => {
    const r = (wallet: string, asset: string, amount: string) =>
      keyLimitRefusal(key(), { wallet, asset, amount })?.code;
    expect(r('ops', 'base:usdc', '5000')).toBeUndefined();
    expect(r('ops', 'base:usdc', '5000.000001')).toBe('amount_over_key_limit');
    expect(r('treasury', 'base:usdc', '1')).toBe('wallet_not_allowed');
    expect(r('ops', 'solana:usdc', '1')).toBe('asset_not_allowed');
  });
});

describe('request bodies', () => {
  it('measures nesting without parsing, strings skipped, and stops early', () => {
    expect(nestingDepth('{"a":[1,{"b":"[[[["}]}', 100)).toBe(3);
    expect(nestingDepth('"\\"[[["', 100)).toBe(0);
    expect(nestingDepth('['.repeat(1_000_000), 20)).toBe(21);
  });

  it('gives the modal’s sentences with pointers, and names extra fields', () => {
    const wallets = [{ alias: 'ops', id: 'wal_ops' }];
    const checked = checkFields('offramp', { wallet: 'ops', asset: 'base:usdc', amount: '1.5', extra: 1 }, wallets);
    expect(checked).toMatchObject({ ok: false, errors: [{ pointer: '/extra' }] });
    const missing = checkFields('offramp', { wallet: 'ops', asset: 'base:usdc', amount: '1.5' }, wallets);
    expect(missing.ok ? [] : missing.errors.map((e) => e.pointer)).toEqual(['/beneficiary', '/reason']);
    expect(checkFields('transfer', [], wallets)).toMatchObject({ ok: false, errors: [{ pointer: '' }] });
  });
});
