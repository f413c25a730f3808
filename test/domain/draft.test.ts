import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequestText } from '../../src/domain/command-text.js';
import { validateDraft } from '../../src/domain/draft.js';

const wallets = [{ alias: 'ops', id: 'wal_ops' }];
const base = {
  kind: 'transfer' as const,
  wallet: 'ops',
  asset: 'base:usdc',
  amount: '25',
  entireBalance: false,
  receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
  beneficiary: undefined,
  reason: 'invoice 7',
};

describe('modal validation', () => {
  it('accepts a correct transfer', () => {
    const r = validateDraft(base, wallets);
    expect('draft' in r && r.draft.amount?.units).toBe(25_000_000n);
  });

  it('puts each problem on its own field', () => {
    const r = validateDraft(
      {
        ...base,
        wallet: 'nope',
        asset: 'base:usdt',
        amount: '1.0000001',
        receiver: '0x99ed2e97162533BA814aF8092b93b9a3090DEdcF',
        reason: '',
      },
      wallets,
    );
    expect('errors' in r && Object.keys(r.errors).sort()).toEqual(['asset', 'reason', 'wallet']);
    const amountAndReceiver = validateDraft(
      { ...base, amount: '1.0000001', receiver: '0x99ed2e97162533BA814aF8092b93b9a3090DEdcF' },
      wallets,
    );
    expect('errors' in amountAndReceiver && amountAndReceiver.errors).toEqual({
      amount: expect.stringContaining('6 decimal places'),
      receiver: expect.stringContaining('checksum'),
    });
  });

  it('checks the receiver against the asset chain (Solana base58 for solana assets)', () => {
    const r = validateDraft({ ...base, asset: 'solana:usdc' }, wallets);
    expect('errors' in r && r.errors.receiver).toContain('Solana');
  });

  it('refuses "entire balance" on an offramp and a typed amount together with it', () => {
    expect(
      validateDraft({ ...base, kind: 'offramp', beneficiary: 'b1', amount: '', entireBalance: true }, wallets),
    ).toMatchObject({ errors: { amount: expect.any(String) } });
    expect(validateDraft({ ...base, entireBalance: true }, wallets)).toMatchObject({
      errors: { amount: expect.stringContaining('not both') },
    });
    const entire = validateDraft({ ...base, amount: '', entireBalance: true }, wallets);
    expect('draft' in entire && entire.draft.amount).toBeUndefined();
  });
});

describe('command text pre-fill', () => {
  it('reads the documented example', () => {
    expect(parseRequestText('250 base:usdc to 0xAbC from ops for vendor invoice 118')).toEqual({
      amount: '250',
      asset: 'base:usdc',
      receiver: '0xAbC',
      wallet: 'ops',
      reason: 'vendor invoice 118',
    });
  });

  it('reads "all" as the entire balance and tolerates any order', () => {
    expect(parseRequestText('from treasury all solana:USDT to Abc')).toEqual({
      entireBalance: true,
      asset: 'solana:usdt',
      receiver: 'Abc',
      wallet: 'treasury',
    });
  });

  it('never throws, whatever is typed', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof parseRequestText(s) === 'object'));
  });
});
