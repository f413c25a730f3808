import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-transitions-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

it('refuses any transition the domain state machine does not allow, before touching Redis', async () => {
  const id = await store.nextId();
  await store.create(buildFreshRequest(id));
  await expect(store.transition(id, ['pending'], 'executing', { event: 'executing' })).rejects.toThrow(/not allowed/);
  await expect(store.transition(id, ['succeeded'], 'approved', { event: 'approved' })).rejects.toThrow(/not allowed/);
  expect((await store.get(id))?.state).toBe('pending');
  expect((await store.history(id)).map((e) => e.event)).toEqual(['requested']);
});
