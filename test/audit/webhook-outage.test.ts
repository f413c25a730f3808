/**
 * Audit webhook events are not lost: a receiver down for a day (Rampart's clock injected)
 * still receives every event once it returns, in order per request; a job that finds its
 * request's lock taken waits without spending a try. Real loopback receiver, Redis and BullMQ.
 */

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookBacklog } from '../../src/audit/webhook-backlog.js';
import { type AuditWebhook, createAuditWebhook } from '../../src/audit/webhook-delivery.js';
import { callHash, type ServiceCall } from '../../src/domain/request.js';
import { createLogger } from '../../src/log.js';
import { RequestStore } from '../../src/store/requests.js';
import { auditReceiver } from '../support/audit-receiver.js';
import { createSealed } from '../support/factories.js';
import { deleteKeys, eventually, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const MINUTE = 60_000;
const CAP = 15 * MINUTE;
const prefix = `test-audit-outage-${randomUUID()}`;
let clock = Date.UTC(2030, 0, 1);
const now = () => clock;
const receiver = auditReceiver({ up: false });
const received = receiver.received;
let redis: Redis;
let webhook: AuditWebhook;
let store: RequestStore;
let backlog: WebhookBacklog;
const logs = new LogSink();

beforeAll(async () => {
  await receiver.start();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  webhook = createAuditWebhook({
    redis,
    prefix,
    url: receiver.url,
    secret: 'audit-webhook-secret-for-tests',
    log: createLogger({ level: 'warn' }, logs),
    now,
    options: { backoffMs: 5_000, maxBackoffMs: CAP, lockWaitMs: 20, sweepEveryMs: 25, concurrency: 4 },
  });
  store = new RequestStore(redis, prefix, now, (c) => {
    webhook.enqueue(c.id, c.seq).catch(() => {});
  });
  backlog = new WebhookBacklog(redis, prefix);
  webhook.startWorker({ redis, store });
});
afterAll(async () => {
  await webhook.close();
  await redis.quit();
  await deleteKeys(prefix);
  await receiver.close();
});

async function storeRequest(reason: string): Promise<string> {
  const call: ServiceCall = {
    kind: 'offramp',
    body: { wallet_id: 'wal_ops_7f3a', amount: 1, beneficiary_id: 'ben_1', asset: 'base:usdc' },
  };
  return createSealed(store, call, { display: {}, reason, createdAt: clock, expiresAt: clock + 7 * 86_400_000 });
}

const due = () => redis.zrangebyscore(`${prefix}:audit:due`, '-inf', clock);
const idle = async () => {
  const counts = await webhook.queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
};
/** Every try due by now was made: nothing due, nothing queued, twice in a row. */
async function triesMade(): Promise<void> {
  let seen = 0;
  await eventually(
    async () => {
      seen = (await due()).length === 0 && (await idle()) ? seen + 1 : 0;
      return seen >= 2 || undefined;
    },
    10_000,
    'the due tries',
  );
}

describe('the audit webhook over a day-long outage', () => {
  it('delivers every event once, in order per request, after the receiver was down 24 h', async () => {
    const a = await storeRequest('paid later');
    const b = await storeRequest('cancelled at once');
    await store.transition(b, ['pending'], 'cancelled', { event: 'cancelled', by: 'U0REQUESTER' });
    await eventually(async () => ((await backlog.read(store)).requests === 2 ? true : undefined), 10_000, 'failures');
    const started = clock;
    for (let hour = 1; hour <= 24; hour++) {
      clock += 60 * MINUTE;
      if (hour === 12) {
        // Half-way through, more changes of a request already waiting.
        await store.castVote(a, 'U0APPROVER1');
        await store.executions.start(a, 'worker');
      }
      await triesMade();
    }
    expect(received).toEqual([]);
    // More than the 12 attempts after which the old retries gave up, and never more than CAP apart.
    const tries = (await redis.hmget(`${prefix}:audit:tries`, a, b)).map(Number);
    for (const n of tries) expect(n).toBeGreaterThan(24);
    // One POST per failed try: a try stops at the request's first undelivered event.
    expect(receiver.refused).toBe(tries.reduce((x, y) => x + y, 0));
    for (const id of [a, b])
      expect(Number(await redis.zscore(`${prefix}:audit:due`, id))).toBeLessThanOrEqual(clock + CAP);
    const owed = await backlog.read(store);
    expect(owed).toEqual({ events: 3 + 2, requests: 2, oldestAt: started });
    expect(logs.text).toContain('audit webhook delivery failed; will try again');

    receiver.up = true;
    clock += CAP;
    await eventually(() => (received.length >= 5 ? true : undefined), 10_000, 'every event');
    await triesMade();
    // Once each: the votes and the queueing between a's state changes are not events.
    expect(received.map((e) => e.event_id).sort()).toEqual([`${a}:1`, `${a}:3`, `${a}:5`, `${b}:1`, `${b}:2`]);
    expect(received.filter((e) => e.request_id === a).map((e) => e.state)).toEqual([
      'pending',
      'approved',
      'executing',
    ]);
    expect(received.filter((e) => e.request_id === b).map((e) => e.state)).toEqual(['pending', 'cancelled']);
    // A sweep may have caught a job still queued: its extra try, once due, finds nothing to send.
    clock += MINUTE;
    await triesMade();
    expect(await backlog.read(store)).toEqual({ events: 0, requests: 0, oldestAt: undefined });
    expect(received).toHaveLength(5);
  }, 60_000);

  it('a job that finds the request locked waits without spending a try, then delivers once', async () => {
    receiver.up = true;
    const before = received.length;
    const id = await store.nextId();
    const lock = `${prefix}:audit:lock:${id}`;
    await redis.set(lock, 'held-by-someone-else', 'PX', 60_000);
    const c = await storeRequestWithId(id);
    const job = await eventually(async () => {
      const j = await webhook.queue.getJob(`${c}-1`);
      return j && (await j.getState()) === 'delayed' ? j : undefined;
    });
    // It looked, found the lock taken, and waits: no attempt made, no failed try recorded.
    await eventually(async () => ((await webhook.queue.getJob(`${c}-1`))?.delay ?? 0) > 0 || undefined);
    expect(job.attemptsMade).toBe(0);
    expect(await redis.hget(`${prefix}:audit:tries`, id)).toBeNull();
    await redis.del(lock);
    await eventually(() => (received.length > before ? true : undefined), 10_000, 'the delivery');
    await triesMade();
    expect(received.slice(before).map((e) => e.event_id)).toEqual([`${id}:1`]);
  });
});

async function storeRequestWithId(id: string): Promise<string> {
  const call: ServiceCall = {
    kind: 'offramp',
    body: { wallet_id: 'wal_ops_7f3a', amount: 1, beneficiary_id: 'ben_1', asset: 'base:usdc' },
  };
  await store.create({
    id,
    call,
    display: {},
    requester: 'U0REQUESTER',
    reason: 'locked',
    createdAt: clock,
    expiresAt: clock + 86_400_000,
    requiredApprovals: 1,
    rule: '1 approval',
    hash: callHash(call),
  });
  return id;
}
