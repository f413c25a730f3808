/**
 * The sanctions list's swap: one loader at a time, never an older list over a newer one, never a
 * shrunken list without --accept-removals (whose removed addresses go to the trail), a refused
 * load keeps the previous list, and 20,000 addresses load in pipelined chunks.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { readPlainList, type ScreeningList } from '../../src/domain/screening-list.js';
import { ScreeningStore } from '../../src/store/screening.js';
import { StoreKeys } from '../../src/store/store-keys.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-screening-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

const addresses = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `0x${(from + i).toString(16).padStart(40, '0')}`);
function list(published: string, addrs: string[]): ScreeningList {
  const read = readPlainList(
    Buffer.from(`# name: OFAC SDN\n# published: ${published}\n${addrs.join('\n')}\n`),
    published,
  );
  if (!read.ok) throw new Error(read.problem);
  return read.list;
}
const who = (acceptRemovals = false) => ({ by: 'cli', source: 'test', now: Date.now(), acceptRemovals });
let n = 0;
const fresh = () => new ScreeningStore(redis, new StoreKeys(`${prefix}:${++n}`));

it('loads a list, then refuses an older one and keeps the newer', async () => {
  const store = fresh();
  expect(await store.load(list('2026-11-27', addresses(3)), who())).toMatchObject({ kind: 'loaded', removed: [] });
  expect(await store.load(list('2026-11-20', addresses(4)), who())).toEqual({ kind: 'older', current: '2026-11-27' });
  expect((await store.current())?.published).toBe('2026-11-27');
  expect(await redis.scard(store.list)).toBe(3);
});

it('refuses a list with 10 fewer addresses unless removals are accepted, then writes them to the trail', async () => {
  const store = fresh();
  await store.load(list('2026-11-20', addresses(30)), who());
  const shrunk = list('2026-11-27', addresses(20));
  expect(await store.load(shrunk, who())).toMatchObject({ kind: 'removals', count: 10 });
  expect(await redis.scard(store.list)).toBe(30);
  expect((await store.current())?.published).toBe('2026-11-20');
  const accepted = await store.load(shrunk, who(true));
  expect(accepted).toMatchObject({ kind: 'loaded' });
  expect(accepted.kind === 'loaded' && accepted.removed.sort()).toEqual(
    addresses(10, 20)
      .map((a) => `evm:${a}`)
      .sort(),
  );
  expect(await redis.scard(store.list)).toBe(20);
  const trail = await store.trail();
  expect(trail.map((e) => e.event)).toEqual(['loaded', 'refused-removals', 'loaded']);
  expect(trail.at(-1)?.removed).toHaveLength(10);
});

it('two loaders at once leave the newer list, whichever runs first', async () => {
  for (const order of [0, 1]) {
    const store = fresh();
    const older = list('2026-11-20', addresses(500));
    const newer = list('2026-11-27', addresses(600));
    const [a, b] = order ? [newer, older] : [older, newer];
    const outcomes = await Promise.all([
      store.load(a, who()),
      new ScreeningStore(redis, new StoreKeys(`${prefix}:${n}`)).load(b, who()),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(order ? ['loaded', 'older'] : ['loaded', 'loaded']);
    expect((await store.current())?.published).toBe('2026-11-27');
    expect(await redis.scard(store.list)).toBe(600);
  }
});

it('the same bytes again only confirm the list: its age counts from then', async () => {
  const store = fresh();
  const l = list('2026-11-27', addresses(5));
  await store.load(l, { ...who(), now: 1_000 });
  expect(await store.load(l, { ...who(), now: 2_000 })).toMatchObject({
    kind: 'confirmed',
    meta: { confirmedAt: 2_000 },
  });
  expect((await store.current())?.confirmedAt).toBe(2_000);
});

it('loads 20,000 addresses and answers membership by destination key', async () => {
  const store = fresh();
  const big = list('2026-11-27', addresses(20_000));
  const r = await store.load(big, who());
  expect(r.kind).toBe('loaded');
  expect(await redis.scard(store.list)).toBe(20_000);
  const checked = await store.check([`evm:${addresses(1, 19_999)[0]}`, 'evm:0xnot-listed']);
  expect(checked.listed).toEqual([true, false]);
  expect(checked.meta?.count).toBe(20_000);
});
