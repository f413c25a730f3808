import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { callHash, type ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-transitions-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

it('refuses any transition the domain state machine does not allow, before touching Redis', async () => {
  const call: ServiceCall = {
    kind: 'transfer',
    body: { wallet_id: 'w', amount: 1, receiver: 'r', asset: 'base:usdc' },
  };
  const id = await store.nextId();
  await store.create({
    id,
    call,
    display: {},
    requester: 'U1',
    reason: 'r',
    createdAt: Date.now(),
    expiresAt: Date.now() + 60_000,
    requiredApprovals: 1,
    rule: 'r',
    hash: callHash(call),
  });
  await expect(store.transition(id, ['pending'], 'executing', { event: 'executing' })).rejects.toThrow(/not allowed/);
  await expect(store.transition(id, ['succeeded'], 'approved', { event: 'approved' })).rejects.toThrow(/not allowed/);
  expect((await store.get(id))?.state).toBe('pending');
  expect((await store.history(id)).map((e) => e.event)).toEqual(['requested']);
});
