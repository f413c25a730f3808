/**
 * A cancel inside an approval's wait is a final state: like every other (cancel-queued.lua,
 * decide.lua, finish.lua), it masks the personal data the record keeps — the sealed request and
 * execution 1's own copy of the call — in the same script. It cancels every execution at once,
 * so the approval leaves the ready index with them.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { RequestStore } from '../../src/store/requests.js';
import { buildSealedRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-window-cancel-mask-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

/** A beneficiary approval, approved and waiting (a runAt an hour ahead: a cancel window or a set time). */
async function waitingApproval() {
  const now = Date.now();
  const sealed = buildSealedRequest('beneficiary', {
    id: await store.nextId(),
    requiredApprovals: 1,
    createdAt: now,
    expiresAt: now + 60_000,
  });
  expect(JSON.stringify(sealed.call)).toContain('0123456789');
  expect((await store.create(sealed)).outcome).toBe('created');
  expect(await store.vote(sealed.id, 'U0APPROVER1')).toBe('approved');
  await redis.hset(store.keys.approval(sealed.id), 'runAt', String(Date.now() + 3_600_000));
  return sealed;
}

it('masks the full account number in the record and in execution 1 when a waiting approval is cancelled', async () => {
  const sealed = await waitingApproval();
  const r = await store.executions.cancelWaiting(sealed.id, { event: 'cancelled', by: 'U0APPROVER1' });
  expect(r).toEqual({ ok: true, cancelled: 1 });
  const stored = JSON.stringify([
    await redis.hgetall(store.keys.approval(sealed.id)),
    await redis.hgetall(store.keys.execution(`${sealed.id}.1`)),
  ]);
  expect(stored).not.toContain('0123456789');
  expect(stored).toContain('6789');
});

it('takes a cancelled waiting approval out of the ready index even when its queued count drifted', async () => {
  const sealed = await waitingApproval();
  expect(await redis.zscore(store.keys.ready, sealed.id)).not.toBeNull();
  // Every execution is cancelled at once: a count above the truth must not leave it ready.
  await redis.hincrby(store.keys.approval(sealed.id), 'c:queued', 1);
  const r = await store.executions.cancelWaiting(sealed.id, { event: 'cancelled', by: 'U0APPROVER1' });
  expect(r).toEqual({ ok: true, cancelled: 1 });
  expect(await redis.zscore(store.keys.ready, sealed.id)).toBeNull();
});
