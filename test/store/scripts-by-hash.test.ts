/**
 * Speed: the store's scripts go to Redis by hash (EVALSHA), the text only
 * when Redis does not know it (NOSCRIPT), and a transition still happens exactly once after
 * Redis forgot every script (SCRIPT FLUSH, as after a restart or a failover). The scripts are
 * read from store/lua/*.lua once at start: a flush between a vote and its wake-up, or before a
 * start, costs one re-send and changes nothing else — each payment still runs once. SCRIPT FLUSH
 * empties the whole server's cache, so every test that flushes lives in this one file: they run
 * one after another, never while another of them counts what Redis was sent.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { APPROVERS, sealBatch, useWorld } from '../app/support.js';
import { buildFreshRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-scripts-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
const watcher = new Redis(REDIS_URL, { lazyConnect: true });
const w = useWorld('script-flush');
afterAll(async () => {
  watcher.disconnect();
  await redis.quit();
  await deleteKeys(prefix);
});

const call: ServiceCall = { kind: 'transfer', body: { wallet_id: 'w', amount: 1, receiver: 'r', asset: 'base:usdc' } };

async function pending(): Promise<string> {
  const id = await store.nextId();
  await store.create(buildFreshRequest(id, { call }));
  return id;
}

it('sends the vote and start scripts by hash, and after SCRIPT FLUSH runs each once with its text', async () => {
  // Each script is known to this Redis before the watch begins.
  const first = await pending();
  expect(await store.vote(first, 'U2')).toBe('approved');
  expect((await store.executions.start(`${first}.1`, 'w')).token).toBeDefined();

  const seen: string[] = [];
  const monitor = await watcher.monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua' && args.some((a) => a.includes(prefix))) seen.push((args[0] ?? '').toLowerCase());
  });
  const second = await pending();
  const third = await pending();
  await store.vote(second, 'U2');
  await redis.script('FLUSH');
  expect(await store.vote(third, 'U2')).toBe('approved');
  expect(await store.vote(third, 'U3')).not.toBe('approved');
  expect((await store.executions.start(`${third}.1`, 'w')).token).toBeDefined();
  expect((await store.executions.start(`${third}.1`, 'w')).token).toBeUndefined();
  await redis.ping();
  await expect.poll(() => seen.length).toBeGreaterThanOrEqual(11);
  monitor.disconnect();

  // By hash; after the flush, Redis answers NOSCRIPT once per script and gets its text once.
  const creates = ['evalsha', 'evalsha', 'evalsha', 'evalsha']; // id, create, id, create
  const votes = ['evalsha', 'evalsha', 'eval', 'evalsha']; // before the flush, NOSCRIPT → text, by hash
  const starts = ['evalsha', 'eval', 'evalsha'];
  expect(seen).toEqual([...creates, ...votes, ...starts]);
  expect((await store.get(third))?.state).toBe('executing');
  expect((await store.history(third)).filter((e) => e.event === 'approved')).toHaveLength(1);
});

const A1 = APPROVERS[0] as string;

it('a vote, SCRIPT FLUSH, then its wake: the start finds its script and the payment runs once', async () => {
  const id = await sealBatch(w, [3.11], 'R');
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  // The vote script pushed the quorum's wake for the approval in the same step.
  expect(await w.redis.lrange(w.store.keys.wake, 0, -1)).toContain(id);
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: 'wake-1' })).toBe('succeeded');
  // A second pick-up of the same job finds nothing queued: no second call.
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: 'wake-1' })).toBe('skipped');
  expect(w.received(3.11)).toBe(1);
  expect((await w.store.get(id))?.state).toBe('succeeded');
});

it('SCRIPT FLUSH before each start of a batch: every row still starts, in order, and runs once', async () => {
  const id = await sealBatch(w, [3.21, 3.22]);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  await w.redis.script('FLUSH');
  // Row 1's first start takes the wallet's turn and asks for the funding check.
  const first = await w.store.executions.start(`${id}.1`, 't');
  expect(first.token === undefined ? first.approval : 'started').toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  await w.redis.script('FLUSH');
  // Row 2 before row 1 is refused by the start script, which Redis had to be sent again.
  expect((await w.store.executions.start(`${id}.2`, 't')).token).toBeUndefined();
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('succeeded');
  expect([w.received(3.21), w.received(3.22)]).toEqual([1, 1]);
  const record = await w.store.get(id);
  expect(record).toMatchObject({ shape: 'batch', approvalState: 'done', state: 'succeeded' });
});
