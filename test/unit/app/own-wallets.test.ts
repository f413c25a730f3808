/** Own wallet addresses are read once per process every few minutes, not per submission. */
import { describe, expect, it } from 'vitest';
import { ownWalletNamed, ownWallets } from '../../../src/app/own-wallets.js';

const WALLETS = [
  { alias: 'ops', id: 'wal_ops' },
  { alias: 'treasury', id: 'wal_treasury' },
];

function service(fail = false) {
  const calls: string[] = [];
  return {
    calls,
    async getWallet(id: string) {
      calls.push(id);
      if (fail) throw new Error('service down');
      return { address: { evm: `0xAbC${id}`, svm: `So1${id}` } } as never;
    },
  };
}

describe('ownWallets', () => {
  it('reads each configured wallet once and answers later submissions from memory until it is stale', async () => {
    const s = service();
    await ownWallets(s, WALLETS, 0);
    await ownWallets(s, WALLETS, 60_000);
    expect(s.calls).toEqual(['wal_ops', 'wal_treasury']);
    await ownWallets(s, WALLETS, 11 * 60_000);
    expect(s.calls).toHaveLength(4);
  });

  it('keeps no failed read', async () => {
    const s = service(true);
    await expect(ownWallets(s, WALLETS, 0)).rejects.toThrow('service down');
    await expect(ownWallets(s, WALLETS, 1)).rejects.toThrow('service down');
    expect(s.calls).toHaveLength(4);
  });

  it('names the other configured wallet a receiver is, EVM without case, Solana exactly', async () => {
    const wallets = await ownWallets(service(), WALLETS, 0);
    expect(ownWalletNamed(wallets, 'ops', '0xabcwal_treasury')).toBe('treasury');
    expect(ownWalletNamed(wallets, 'ops', 'So1wal_treasury')).toBe('treasury');
    expect(ownWalletNamed(wallets, 'ops', 'so1wal_treasury')).toBeUndefined();
    expect(ownWalletNamed(wallets, 'treasury', '0xabcwal_treasury')).toBeUndefined();
  });
});
