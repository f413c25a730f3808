/**
 * Issue 19 "Speed and memory": the store's scripts go to Redis by hash (EVALSHA), the text only
 * when Redis does not know it (NOSCRIPT), and a transition still happens exactly once after
 * Redis forgot every script (SCRIPT FLUSH, as after a restart or a failover).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-scripts-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
const watcher = new Redis(REDIS_URL, { lazyConnect: true });
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
