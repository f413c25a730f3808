/**
 * Requests are indexed by state in Redis, moved by the same Lua scripts as the state itself,
 * so `rampart requests --state` finds an old request behind a thousand newer ones.
 */

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore, type StateChange } from '../../src/store/requests.js';
import { cli } from '../cli/support.js';
import { createSealed } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-state-index-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
let now = Date.UTC(2026, 10, 1);
const changes: StateChange[] = [];
const store = new RequestStore(
  redis,
  prefix,
  () => now,
  (c) => changes.push(c),
);
const call: ServiceCall = {
  kind: 'offramp',
  body: { wallet_id: 'w', amount: 1, beneficiary_id: 'b', asset: 'base:usdc' },
};

async function create(): Promise<string> {
  return createSealed(store, call, { display: {}, requester: 'U0REQ', reason: 'r', createdAt: now, rule: 'r' });
}

let oldApproved: string;
let oldExecuting: string;
beforeAll(async () => {
  oldApproved = await create();
  oldExecuting = await create();
  now += 1000;
  await store.vote(oldApproved, 'U0APP');
  await store.vote(oldExecuting, 'U0APP');
  now += 1000;
  await store.startExecution(oldExecuting, 'w1');
  for (let i = 0; i < 1005; i++) {
    now += 1;
    await create();
  }
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

it('keeps each request in exactly the index of its state, scored by when it entered it', async () => {
  expect(await store.idsInState('approved')).toEqual([oldApproved]);
  expect(await store.idsInState('executing')).toEqual([oldExecuting]);
  expect(await store.stateCount('pending')).toMatchObject({ count: 1005 });
  expect(await store.stateCount('approved')).toEqual({ count: 1, oldestSince: Date.UTC(2026, 10, 1) + 1000 });
  const finished = await store.finishExecution(oldExecuting, 'wrong-token', 'succeeded', {});
  expect(finished.ok).toBe(false);
  expect(await store.idsInState('executing')).toEqual([oldExecuting]);
  expect(await store.idsInState('succeeded')).toEqual([]);
});

it('tells the listener of each change with the kind and the history position', () => {
  expect(changes.filter((c) => c.id === oldExecuting)).toEqual([
    { id: oldExecuting, kind: 'offramp', state: 'pending', seq: 1 },
    { id: oldExecuting, kind: 'offramp', state: 'approved', seq: 3 }, // after requested, approval
    { id: oldExecuting, kind: 'offramp', state: 'executing', seq: 5 }, // after queued
  ]);
});

it('rampart requests --state finds a request older than the newest thousand', async () => {
  const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
  const approved = await cli(['requests', '--state', 'approved', '--json'], env);
  expect(approved.code).toBe(0);
  expect((JSON.parse(approved.stdout) as { id: string }[]).map((r) => r.id)).toEqual([oldApproved]);
  const executing = await cli(['requests', '--state', 'executing', '--json'], env);
  expect((JSON.parse(executing.stdout) as { id: string }[]).map((r) => r.id)).toEqual([oldExecuting]);
});
