/**
 * The real ServiceClient against a real sandbox over HTTP: reads, transfers, and requests that
 * are refused before they leave the process.
 */
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { ServiceClient } from '../../src/service/client.js';
import type { TransferRequest } from '../../src/service/schemas.js';
import {
  EVM_RECEIVER,
  IDENTITY,
  LEGACY,
  OPS,
  PAYROLL,
  refused,
  SOL_RECEIVER,
  useSandboxClient,
} from './sandbox-client.js';

/** Requests the types forbid, to prove the runtime check refuses them too. */
const unchecked = <T>(value: unknown): T => value as T;

const ctx = useSandboxClient();

describe('reads', () => {
  it('getWallet returns the seeded wallet and sends its id as wallet_id', async () => {
    await expect(ctx.client.getWallet(OPS)).resolves.toEqual({
      id: OPS,
      reference: 'ops-hot-wallet',
      is_active: true,
      address: {
        evm: '0x6Be7E73f4A1264E8EF4C486e42C78f33D5Dc5344',
        svm: 'CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E',
      },
      transfer: true,
      swap: true,
      offramp: true,
    });
    expect(ctx.sandbox.state.received).toMatchObject([{ method: 'GET', path: '/wallet', query: { wallet_id: OPS } }]);
  });

  it('getWallet of an unknown wallet fails with 404 and carries the service message', async () => {
    await expect(ctx.client.getWallet('wal_nope')).rejects.toMatchObject(refused(404, 'wallet wal_nope not found'));
    expect(ctx.sandbox.state.received).toHaveLength(1); // a 404 is not retried
  });

  it('getBalances returns every holding with balance, available and debt', async () => {
    const balances = await ctx.client.getBalances(OPS);
    expect(balances.map((b) => b.id)).toEqual(['base:usdc', 'solana:usdc', 'ethereum:usdt', 'bsc:cngn']);
    expect(balances[0]).toEqual({
      id: 'base:usdc',
      name: 'USD Coin',
      code: 'USDC',
      blockchain: { id: 8453, name: 'Base' },
      balance: 125_400.5,
      available: 120_000.5,
      debt: 0,
    });
  });

  it('getOnrampRate returns the NGN rate, sending the currency in its wire form', async () => {
    await expect(ctx.client.getOnrampRate('NGN')).resolves.toEqual({ rate: 1_532.75 });
    expect(ctx.sandbox.state.received[0]?.query).toEqual({ currency: 'ngn' });
  });

  it('lookupAccount verifies a known account and refuses an unknown one with 404', async () => {
    await expect(
      ctx.client.lookupAccount({ bank_code: '058', currency: 'ngn', account_number: '0123456789' }),
    ).resolves.toEqual({
      bank_code: '058',
      bank_name: 'Guaranty Trust Bank',
      account_number: '0123456789',
      account_name: 'ADAEZE OKAFOR',
    });
    await expect(
      ctx.client.lookupAccount({ bank_code: '058', currency: 'ngn', account_number: '9999999999' }),
    ).rejects.toMatchObject(refused(404, 'account not found'));
  });

  it('a wrong x-service-key is refused with 401 and not retried', async () => {
    const stranger = new ServiceClient({ baseUrl: ctx.sandbox.url, apiKey: 'wrong', retryBaseDelayMs: 1 });
    await expect(stranger.getBalances(OPS)).rejects.toMatchObject(refused(401, 'invalid x-service-key'));
    await stranger.close();
    expect(ctx.sandbox.state.received).toHaveLength(1);
  });
});

describe('transfer', () => {
  const base = (amount: number): TransferRequest => ({
    wallet_id: OPS,
    amount,
    receiver: EVM_RECEIVER,
    asset: 'base:usdc',
  });

  it('moves the amount, returns an EVM hash with its explorer link, and sends the body unchanged', async () => {
    const result = await ctx.client.transfer(base(250.75));
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(result.link).toBe(`https://basescan.org/tx/${result.hash}`);
    expect(ctx.sandbox.state.balanceOf(OPS, 'base:usdc')).toEqual({
      balance: 125_149.75,
      available: 119_749.75,
      debt: 0,
    });
    expect(ctx.sandbox.state.received).toEqual([
      { method: 'POST', path: '/transfer', query: {}, body: base(250.75), at: expect.any(String) },
    ]);
  });

  it('returns a base58 Solana signature of 64 bytes linked to solscan', async () => {
    const result = await ctx.client.transfer({ ...base(10), asset: 'solana:usdc', receiver: SOL_RECEIVER });
    expect(base58.decode(result.hash)).toHaveLength(64);
    expect(result.link).toBe(`https://solscan.io/tx/${result.hash}`);
  });

  it('amount -1 moves the whole available balance (spec 4.2)', async () => {
    await ctx.client.transfer(base(-1));
    expect(ctx.sandbox.state.balanceOf(OPS, 'base:usdc')).toEqual({ balance: 5_400, available: 0, debt: 0 });
    expect(ctx.sandbox.state.received[0]?.body).toMatchObject({ amount: -1 });
  });

  it('more than the available balance is refused with 422 and moves nothing', async () => {
    await expect(ctx.client.transfer(base(120_000.51))).rejects.toMatchObject(
      refused(422, 'insufficient available balance: 120000.5 available'),
    );
    expect(ctx.sandbox.state.balanceOf(OPS, 'base:usdc')?.available).toBe(120_000.5);
  });

  it('a wallet with transfers off is refused with 403', async () => {
    const request = { ...base(1), wallet_id: PAYROLL, asset: 'polygon:usdc' as const };
    await expect(ctx.client.transfer(request)).rejects.toMatchObject(
      refused(403, 'transfers are disabled for this wallet'),
    );
  });

  it('an inactive wallet is refused with 403', async () => {
    const request = { ...base(1), wallet_id: LEGACY, asset: 'optimism:usdc' as const };
    await expect(ctx.client.transfer(request)).rejects.toMatchObject(refused(403, `wallet ${LEGACY} is not active`));
  });

  it('a receiver with a broken EIP-55 checksum is refused with 400 naming the receiver', async () => {
    const broken = EVM_RECEIVER.replace('f5c2Bd', 'f5c2bd');
    await expect(ctx.client.transfer({ ...base(1), receiver: broken })).rejects.toMatchObject({
      status: 400,
      serviceMessage: expect.stringMatching(/^receiver: .*checksum/),
    });
  });

  it('a Solana address for an EVM asset is refused with 400', async () => {
    await expect(ctx.client.transfer({ ...base(1), receiver: SOL_RECEIVER })).rejects.toMatchObject({
      status: 400,
      serviceMessage: expect.stringMatching(/^receiver: /),
    });
  });
});

describe('requests are validated before sending', () => {
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    [
      'asset base:usdt',
      () => ctx.client.transfer(unchecked({ wallet_id: OPS, amount: 1, receiver: EVM_RECEIVER, asset: 'base:usdt' })),
      'asset',
    ],
    [
      'amount 0',
      () => ctx.client.transfer({ wallet_id: OPS, amount: 0, receiver: EVM_RECEIVER, asset: 'base:usdc' }),
      'amount',
    ],
    [
      'offramp amount -1',
      () => ctx.client.offramp({ wallet_id: OPS, amount: -1, beneficiary_id: 'ben_x', asset: 'bsc:cngn' }),
      'amount',
    ],
    [
      'bvn of 10 digits',
      () => ctx.client.createIdentity({ ...IDENTITY, details: { bvn: '2233445566', dob: '01-01-1990' } }),
      'details.bvn',
    ],
    [
      'dob 31-02-2000',
      () => ctx.client.createIdentity({ ...IDENTITY, details: { bvn: '22334455667', dob: '31-02-2000' } }),
      'details.dob',
    ],
    ['empty wallet id', () => ctx.client.getWallet('  '), 'wallet_id'],
  ];

  it.each(cases)('%s throws InputError naming the field and sends nothing', async (_name, call, field) => {
    const error = await call().then(
      () => expect.unreachable('the call should have been refused'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'INPUT_INVALID', field, message: expect.stringContaining(`${field}:`) });
    expect(ctx.sandbox.state.received).toEqual([]);
  });
});
