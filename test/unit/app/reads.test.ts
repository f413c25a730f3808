/** The read use cases with an in-memory service: outcomes, not sentences (the edges phrase them). */
import { describe, expect, it } from 'vitest';
import { lookupAccount, type ReadDeps, readBalances, readRate } from '../../../src/app/reads.js';
import { WALLET_KEEP_MS } from '../../../src/app/wallet-cache.js';
import { ServiceError } from '../../../src/service/errors.js';
import type { BalanceEntry } from '../../../src/service/schemas.js';
import { buildWallet } from '../../support/factories.js';

const notFound = (operation: 'getWallet' | 'lookupAccount') =>
  new ServiceError('SERVICE_REJECTED', 'not found', { operation, status: 404, mayHaveReached: true });

function fakeService(known: string[]): ReadDeps['service'] {
  return {
    getWallet: async (id) => {
      if (!known.includes(id)) throw notFound('getWallet');
      return buildWallet(id);
    },
    getBalances: async (): Promise<BalanceEntry[]> => [],
    getOnrampRate: async () => ({ rate: 1612.5 }),
    lookupAccount: async (body) => {
      if (body.account_number !== '0123456789') throw notFound('lookupAccount');
      return {
        account_name: 'ADA OBI',
        account_number: body.account_number,
        bank_name: 'GTBank',
        bank_code: body.bank_code,
      };
    },
  } as ReadDeps['service'];
}

const deps = (known = ['wal_ops', 'wal_tr']): ReadDeps => ({
  service: fakeService(known),
  wallets: [
    { alias: 'ops', id: 'wal_ops' },
    { alias: 'treasury', id: 'wal_tr' },
  ],
});

describe('readBalances', () => {
  it('reads every configured wallet, and names the ones that failed without hiding the rest', async () => {
    const read = await readBalances(deps(['wal_ops']), []);
    expect(read.kind).toBe('wallets');
    if (read.kind !== 'wallets') return;
    expect(read.views.map((v) => v.alias)).toEqual(['ops']);
    expect(read.failures.map((f) => f.alias)).toEqual(['treasury']);
  });

  it('calls a name that is neither an alias nor a known id an unknown wallet, listing the aliases', async () => {
    expect(await readBalances(deps(), ['opps'])).toMatchObject({
      kind: 'unknown-wallet',
      id: 'opps',
      aliases: ['ops', 'treasury'],
    });
  });

  it('refuses more than one wallet', async () => {
    expect((await readBalances(deps(), ['ops', 'treasury'])).kind).toBe('too-many');
  });
});

describe('readRate and lookupAccount', () => {
  it('accepts ngn in any case and refuses other currencies', async () => {
    expect(await readRate(deps(), 'ngn')).toEqual({ kind: 'rate', currency: 'NGN', rate: 1612.5 });
    expect(await readRate(deps(), 'usd')).toEqual({ kind: 'bad-currency', given: 'usd' });
  });

  it('checks the account before asking the service, and tells a bank 404 from a bad input', async () => {
    expect(await lookupAccount(deps(), '58 0123456789')).toMatchObject({ kind: 'bad-input' });
    expect(await lookupAccount(deps(), '058 123')).toMatchObject({ kind: 'bad-input' });
    expect(await lookupAccount(deps(), '058 9999999999')).toMatchObject({ kind: 'no-account' });
    expect(await lookupAccount(deps(), '058 0123456789')).toMatchObject({ kind: 'found' });
  });
});

describe('the wallet record kept briefly (one service call where /balance made two)', () => {
  const counting = (known: string[]) => {
    const service = fakeService(known);
    const calls = { wallet: 0, balances: 0 };
    const getWallet = service.getWallet.bind(service);
    const getBalances = service.getBalances.bind(service);
    service.getWallet = (id) => {
      calls.wallet += 1;
      return getWallet(id);
    };
    service.getBalances = (id) => {
      calls.balances += 1;
      return getBalances(id);
    };
    return { service, calls };
  };
  const wallets = [{ alias: 'ops', id: 'wal_ops' }];

  it('reads the balances every time and the wallet once within 30 s, again after', async () => {
    const { service, calls } = counting(['wal_ops']);
    let now = 1_000_000;
    const read = () => readBalances({ service, wallets, now: () => now }, ['ops']);
    await read();
    now += WALLET_KEEP_MS - 1;
    expect(await read()).toMatchObject({ kind: 'wallets', views: [{ alias: 'ops', wallet: { id: 'wal_ops' } }] });
    expect(calls).toEqual({ wallet: 1, balances: 2 });
    now += 1;
    await read();
    expect(calls).toEqual({ wallet: 2, balances: 3 });
  });

  it('never keeps a failed read: an unknown id is asked again', async () => {
    const { service, calls } = counting([]);
    const read = () => readBalances({ service, wallets, now: () => 5 }, ['wal_x']);
    expect((await read()).kind).toBe('unknown-wallet');
    expect((await read()).kind).toBe('unknown-wallet');
    expect(calls.wallet).toBe(2);
  });
});
