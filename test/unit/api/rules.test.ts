/** The HTTP API's pure parts: token shape, key limits, nesting scan, fields, states. */
import { describe, expect, it } from 'vitest';
import { checkFields } from '../../../src/adapters/api/fields.js';
import { nestingDepth } from '../../../src/adapters/api/http-io.js';
import {
  type ApiKey,
  type ApiKeyLimits,
  hasScope,
  keyLimitRefusal,
  keyLimitsProblem,
  keyState,
  parseToken,
} from '../../../src/domain/api-key.js';

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

  it('refuses limits no request could be held to, with the option and what to give', () => {
    const limits = (over: Record<string, unknown>) =>
      ({ maxOpen: 5, allowNewDestinations: false, ...over }) as ApiKeyLimits;
    expect(keyLimitsProblem(limits({ maxAmount: '5000' }))).toBeUndefined();
    expect(keyLimitsProblem(limits({ maxAmount: '1,250.5', assets: ['base:usdc'] }))).toBeUndefined();
    expect(keyLimitsProblem(limits({ maxAmount: '0' }))).toBe(
      '--max-amount must be more than zero; give the most one request may ask for, e.g. 5000',
    );
    expect(keyLimitsProblem(limits({ maxAmount: '0.000' }))).toContain('more than zero');
    expect(keyLimitsProblem(limits({ maxAmount: '100.0000001' }))).toBe(
      '--max-amount 100.0000001 has 7 decimal places and USDC has 6; give at most 6',
    );
    expect(keyLimitsProblem(limits({ maxAmount: '12,50' }))).toContain('--max-amount: "12,50" is not an amount');
    expect(keyLimitsProblem(limits({ maxAmount: 5000 }))).toBe('--max-amount is not stored as an amount');
    expect(keyLimitsProblem(limits({ maxOpen: 0 }))).toContain('--max-open');
    expect(keyLimitsProblem(limits({ maxOpen: '5' }))).toContain('--max-open');
    expect(keyLimitsProblem(limits({ allowNewDestinations: 'yes' }))).toContain('--allow-new-destinations');
    expect(keyLimitsProblem(limits({ wallets: 'ops' }))).toContain('--wallets');
    expect(keyLimitsProblem(limits({ assets: ['base:doge'] }))).toContain('--assets');
  });

  it('refuses every request of a key whose stored limit cannot be read, never skipping it', () => {
    const broken = key({ limits: { ...key().limits, maxAmount: '100.0000001' } });
    const refusal = keyLimitRefusal(broken, { wallet: 'ops', asset: 'base:usdc', amount: '10000' });
    expect(refusal?.code).toBe('key_limits_unreadable');
    expect(refusal?.field).toBeUndefined();
    expect(refusal?.message).toContain('rampart api-keys create');
    expect(keyLimitRefusal(key(), { wallet: 'ops', asset: 'base:usdc', amount: 'lots' })?.code).toBe(
      'amount_over_key_limit',
    );
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
