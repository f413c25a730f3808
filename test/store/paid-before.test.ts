/**
 * Paid-before by destination key on a real Redis: two Solana addresses differing only in case are
 * two destinations, an EVM address in any case is one; the start-up sweep moves the set stored
 * lower-cased (EVM re-keyed, Solana dropped, beneficiaries matched to their registered id), and
 * lookups still read what an older process adds there during a rollout (EVM only). Executions
 * keep their destination key beside the sealed call, outside the hashes.
 */
import { describe, expect, it } from 'vitest';
import { sealHash } from '../../src/domain/approval.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('paid-before');
const store = new RequestStore(redis, prefix);

const EVM = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const EVM_2 = '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68';
/** Two Solana accounts whose addresses differ only in the case of one letter. */
const SOL = '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';
const SOL_OTHER = '7Zb8WEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';
const SOL_2 = 'CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E';
const legacy = `${prefix}:payees`;

describe('paid before', () => {
  it('counts a Solana address paid, and not another differing from it only in case', async () => {
    await store.addPayee('solana', SOL);
    expect(await store.knownPayee('solana', SOL)).toBe(true);
    expect(await store.knownPayee('solana', SOL_OTHER)).toBe(false);
  });

  it('counts an EVM address paid in every case, on its own chain only', async () => {
    await store.addPayee('base', EVM.toLowerCase());
    expect(await store.knownPayee('base', EVM)).toBe(true);
    expect(await store.knownPayee('base', `0x${EVM.slice(2).toUpperCase()}`)).toBe(true);
    expect(await store.knownPayee('ethereum', EVM)).toBe(false);
  });
});

describe('the sweep of entries stored lower-cased', () => {
  it('drops Solana entries, re-keys EVM ones and matches beneficiaries to their registered ids', async () => {
    await redis.sadd(
      legacy,
      `arbitrum:${EVM_2.toLowerCase()}`,
      `solana:${SOL_2.toLowerCase()}`,
      'beneficiary:ben_5f0c2a',
      'beneficiary:ben_gone',
    );
    await redis.hset(`${prefix}:beneficiaries`, 'ben_5F0c2a', '{}');
    // Before the sweep, an EVM entry already counts (a rollout); a lower-cased Solana one never does.
    expect(await store.knownPayee('arbitrum', EVM_2)).toBe(true);
    expect(await store.knownPayee('solana', SOL_2)).toBe(false);

    expect((await store.migrate()).payees).toEqual({ rekeyed: 2, dropped: 2 });
    expect(await redis.exists(legacy)).toBe(0);
    expect(await redis.smembers(`${prefix}:paid:arbitrum`)).toEqual([`evm:${EVM_2.toLowerCase()}`]);
    expect(await store.knownPayee('arbitrum', EVM_2)).toBe(true);
    expect(await store.knownPayee('solana', SOL_2)).toBe(false);
    expect(await store.knownPayee('beneficiary', 'ben_5F0c2a')).toBe(true);
    expect(await store.knownPayee('beneficiary', 'ben_5f0c2a')).toBe(false);
    expect(await store.knownPayee('beneficiary', 'ben_gone')).toBe(false);
    expect((await store.migrate()).payees).toEqual({ rekeyed: 0, dropped: 0 });
  });

  it('still reads an EVM entry an older process adds after the sweep, and the next sweep moves it', async () => {
    await redis.sadd(legacy, `polygon:${EVM.toLowerCase()}`, `solana:${SOL_OTHER.toLowerCase()}`);
    expect(await store.knownPayee('polygon', EVM)).toBe(true);
    expect(await store.knownPayee('solana', SOL_OTHER)).toBe(false);
    expect((await store.migrate()).payees).toEqual({ rekeyed: 1, dropped: 1 });
    expect(await store.knownPayee('polygon', EVM)).toBe(true);
  });
});

describe('executions keep their destination key', () => {
  it('written at creation beside the sealed call, never inside it (what sealHash covers)', async () => {
    const call: ServiceCall = {
      kind: 'transfer',
      body: { wallet_id: 'wal_ops_7f3a', amount: 5, receiver: SOL_OTHER, asset: 'solana:usdc' },
    };
    const sealed = buildFreshRequest(await store.nextId(), { call });
    expect((await store.create(sealed)).outcome).toBe('created');
    const stored = await redis.hgetall(`${prefix}:exec:${sealed.id}.1`);
    expect(stored.dest).toBe(`solana:${SOL_OTHER}`);
    expect(stored.sealHash).toBe(sealHash(call));
    expect(JSON.parse(stored.call ?? '')).toEqual(call);
    const record = await store.get(sealed.id);
    expect(record?.executions[0]?.destinationKey).toBe(`solana:${SOL_OTHER}`);
  });
});
