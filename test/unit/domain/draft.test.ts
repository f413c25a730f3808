import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequestText } from '../../../src/domain/command-text.js';
import { validateDraft } from '../../../src/domain/draft.js';

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

describe('amounts typed with a decimal comma', () => {
  const wallets = [{ alias: 'ops', id: 'wal_1' }];
  const input = (amount: string) => ({
    kind: 'transfer' as const,
    wallet: 'ops',
    asset: 'base:usdc',
    amount,
    entireBalance: false,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    beneficiary: undefined,
    reason: 'invoice 7',
  });

  it('keeps /transfer 12,50 as typed, so the form refuses it at the amount field', () => {
    const prefill = parseRequestText('12,50 base:usdc to 0xabc from ops');
    expect(prefill.amount).toBe('12,50');
    expect(validateDraft(input(prefill.amount ?? ''), wallets)).toEqual({
      errors: {
        amount:
          '"12,50" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.',
      },
    });
  });

  it.each(['0,5', '1,2,3,4'])('refuses %j from the command text at the field', (typed) => {
    expect(validateDraft(input(parseRequestText(`${typed} base:usdc`).amount ?? ''), wallets)).toMatchObject({
      errors: { amount: expect.stringContaining('use a point for decimals') },
    });
  });

  it('reads /transfer 1,250.50 as 1250.5', () => {
    const result = validateDraft(input(parseRequestText('1,250.50 base:usdc').amount ?? ''), wallets);
    expect('draft' in result && result.draft.amount?.units).toBe(1_250_500_000n);
  });
});
