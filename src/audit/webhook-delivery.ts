/**
 * Delivers audit events to AUDIT_WEBHOOK_URL through a durable BullMQ queue (issue 14). One job
 * per state change (job id `<request>-<history position>`, so a repeat add is a no-op). A job
 * delivers, in order, every undelivered state change of its request up to its own, under a
 * per-request lock, and records each one delivered in a cursor — so events reach the receiver in
 * order per request, and once (a receiver should still ignore a repeated event_id: a crash after
 * its 2xx and before the cursor moves sends that one event again). Retries back off
 * exponentially for over five hours, so a receiver down for an hour loses nothing.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { request } from 'undici';
import { z } from 'zod';
import type { Logger } from '../log.js';
import { bullPrefix } from '../queue/queues.js';
import type { RedisClient as Redis } from '../store/redis.js';
import type { RequestStore } from '../store/requests.js';
import { eventBody, SIGNATURE_HEADER, signature, stateOf, TIMESTAMP_HEADER } from './webhook.js';

export const AUDIT_QUEUE = 'audit';
const auditJob = z.object({ requestId: z.string().regex(/^R-\d+$/), seq: z.number().int().min(1) });

export interface DeliveryOptions {
  /** First retry delay; doubles each attempt (5 s × 2^11 ≈ 2.8 h for the 12th). */
  backoffMs?: number;
  attempts?: number;
  timeoutMs?: number;
  concurrency?: number;
  /** How often a worker looks for state changes whose job was never queued (a crash in between). */
  sweepEveryMs?: number;
  /** How far back, by creation time, the sweep looks. */
  sweepLookbackMs?: number;
}

export interface AuditWebhook {
  queue: Queue;
  /** Queues delivery of one state change; safe to call twice for the same one. */
  enqueue(requestId: string, seq: number): Promise<void>;
  /** Starts delivering (worker roles only), on the worker's own (patient) connection and store. */
  startWorker(on: { redis: Redis; store: RequestStore }): void;
  close(): Promise<void>;
}

interface WorkerSide {
  redis: Redis;
  store: RequestStore;
}

export class WebhookRefused extends Error {
  override readonly name = 'WebhookRefused';
}

export function createAuditWebhook(deps: {
  /** The connection jobs are added on. */
  redis: Redis;
  prefix: string;
  url: string;
  secret: string;
  log: Logger;
  now: () => number;
  options?: DeliveryOptions;
}): AuditWebhook {
  const o = deps.options ?? {};
  const queue = new Queue(AUDIT_QUEUE, { connection: deps.redis, prefix: bullPrefix(deps.prefix) });
  queue.on('error', (err) => deps.log.error({ err }, 'audit queue error'));
  const cursorKey = `${deps.prefix}:audit:delivered`;
  const lockKey = (id: string) => `${deps.prefix}:audit:lock:${id}`;
  let worker: Worker | undefined;
  let sweeper: NodeJS.Timeout | undefined;

  async function post(body: string): Promise<void> {
    const timestamp = Math.floor(deps.now() / 1000);
    const res = await request(deps.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature(deps.secret, timestamp, body),
      },
      body,
      headersTimeout: o.timeoutMs ?? 10_000,
      bodyTimeout: o.timeoutMs ?? 10_000,
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new WebhookRefused(`the audit webhook answered HTTP ${res.statusCode}`);
  }

  async function deliverUpTo(on: WorkerSide, requestId: string, seq: number): Promise<void> {
    const delivered = Number((await on.redis.hget(cursorKey, requestId)) ?? '0');
    if (delivered >= seq) return;
    const record = await on.store.get(requestId);
    if (!record) return;
    const entries = await on.store.history(requestId);
    for (let s = delivered + 1; s <= seq; s++) {
      const entry = entries[s - 1];
      const state = entry && stateOf(entry);
      if (entry && state) await post(eventBody(record, entry, s, state));
      await on.redis.hset(cursorKey, requestId, String(s));
    }
  }

  async function process(on: WorkerSide, job: Job): Promise<void> {
    const { requestId, seq } = auditJob.parse(job.data);
    const token = `${job.id}:${job.attemptsMade}`;
    const locked = await on.redis.set(lockKey(requestId), token, 'PX', 60_000, 'NX');
    // Another job is delivering this request's events: try again after the backoff.
    if (locked !== 'OK') throw new Error(`audit events of ${requestId} are being delivered by another job`);
    try {
      await deliverUpTo(on, requestId, seq);
    } finally {
      if ((await on.redis.get(lockKey(requestId))) === token) await on.redis.del(lockKey(requestId));
    }
  }

  async function enqueue(requestId: string, seq: number): Promise<void> {
    await queue.add(
      'deliver',
      { requestId, seq },
      {
        jobId: `${requestId}-${seq}`,
        attempts: o.attempts ?? 12,
        backoff: { type: 'exponential', delay: o.backoffMs ?? 5_000 },
        removeOnComplete: { age: 7 * 86_400 },
        removeOnFail: { age: 30 * 86_400 },
      },
    );
  }

  /**
   * The job is queued just after the state change's script, not inside it: a process that dies in
   * between would leave that change unsent. The sweep queues what the cursor shows is behind.
   */
  async function sweep(on: WorkerSide): Promise<void> {
    const ids = await on.store.idsCreatedSince(deps.now() - (o.sweepLookbackMs ?? 8 * 86_400_000));
    if (ids.length === 0) return;
    const [lengths, delivered] = await Promise.all([on.store.historyLengths(ids), on.redis.hmget(cursorKey, ...ids)]);
    for (const [i, id] of ids.entries()) {
      const seq = lengths[i] ?? 0;
      if (seq > Number(delivered[i] ?? '0')) await enqueue(id, seq);
    }
  }

  return {
    queue,
    enqueue,
    startWorker(on) {
      worker = new Worker(AUDIT_QUEUE, (job) => process(on, job), {
        connection: on.redis,
        prefix: bullPrefix(deps.prefix),
        concurrency: o.concurrency ?? 4,
      });
      worker.on('error', (err) => deps.log.error({ err }, 'audit worker error'));
      sweeper = setInterval(() => {
        sweep(on).catch((err: unknown) => deps.log.warn({ err }, 'audit webhook sweep failed; will try again'));
      }, o.sweepEveryMs ?? 60_000);
      sweeper.unref();
      worker.on('failed', (job, err) =>
        deps.log.warn(
          { jobId: job?.id, attempts: job?.attemptsMade, err },
          'audit webhook delivery failed; will retry',
        ),
      );
    },
    async close() {
      clearInterval(sweeper);
      await worker?.close();
      await queue.close();
    },
  };
}
