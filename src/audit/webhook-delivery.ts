/**
 * Delivers audit events to AUDIT_WEBHOOK_URL through a durable BullMQ queue. A job
 * delivers, in order, every undelivered history entry of its request under a per-request lock,
 * and records each one delivered in a cursor — so events reach the receiver in order per request,
 * and once (a receiver should still ignore a repeated event_id: a crash after its 2xx and before
 * the cursor moves sends that one event again). A failed try is never BullMQ's retry:
 * the backlog (webhook-backlog.ts) schedules the next one on Rampart's clock, doubling up to a
 * cap, forever, and the sweep queues each due try as a NEW job. A job that finds the lock taken
 * waits (BullMQ's DelayedError), which is not a try.
 */
import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { z } from 'zod';
import { bullPrefix } from '../adapters/jobs/queues.js';
import { APPROVAL_ID } from '../domain/approval.js';
import { isBatchRecord } from '../domain/request.js';
import type { Logger } from '../log.js';
import type { RedisClient as Redis } from '../store/redis.js';
import type { RequestStore } from '../store/requests.js';
import { auditRow } from './batch-rows.js';
import { eventBody, postEvent, stateOf } from './webhook.js';
import { type Backlog, WebhookBacklog } from './webhook-backlog.js';

export const AUDIT_QUEUE = 'audit';
// seq: the state change that queued the job (0 for a scheduled retry); a job delivers everything behind.
// Batches (B-n) too.
const auditJob = z.object({ requestId: z.string().regex(APPROVAL_ID), seq: z.number().int().min(0).default(0) });

export interface DeliveryOptions {
  /** Delay after the first failed try (Rampart's clock); doubles each failed try. */
  backoffMs?: number;
  /** The longest wait between two tries, however long the receiver is down. */
  maxBackoffMs?: number;
  /** How long a job that finds its request's lock taken waits before looking again (not a try). */
  lockWaitMs?: number;
  timeoutMs?: number;
  concurrency?: number;
  /** How often a worker queues due tries and looks for state changes never queued (a crash in between). */
  sweepEveryMs?: number;
  /** How far back, by creation time, the sweep looks for state changes never queued. */
  sweepLookbackMs?: number;
}

export interface AuditWebhook {
  queue: Queue;
  /** Queues delivery of one state change; safe to call twice for the same one. */
  enqueue(requestId: string, seq: number): Promise<void>;
  /** Starts delivering (worker roles only), on the worker's own (patient) connection and store. */
  startWorker(on: { redis: Redis; store: RequestStore }): void;
  /** What is still owed, for /metrics. */
  backlog(store: RequestStore): Promise<Backlog>;
  close(): Promise<void>;
}

interface WorkerSide {
  redis: Redis;
  store: RequestStore;
  backlog: WebhookBacklog;
}

/** The time of the history entry a try stopped at, for the backlog's age. */
class StuckAt extends Error {
  constructor(
    readonly at: number,
    override readonly cause: unknown,
  ) {
    super('audit webhook delivery failed');
  }
}

const JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 86_400, count: 10_000 },
  removeOnFail: { age: 7 * 86_400 },
};

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
  const firstMs = o.backoffMs ?? 5_000;
  const capMs = o.maxBackoffMs ?? 15 * 60_000;
  const sweepEveryMs = o.sweepEveryMs ?? 60_000;
  const queue = new Queue(AUDIT_QUEUE, { connection: deps.redis, prefix: bullPrefix(deps.prefix) });
  queue.on('error', (err) => deps.log.error({ err }, 'audit queue error'));
  let worker: Worker | undefined;
  let sweeper: NodeJS.Timeout | undefined;

  const post = (body: string) => postEvent(deps, body, o.timeoutMs ?? 10_000);

  /** Every entry behind the cursor, in order; throws StuckAt at the first that fails. */
  async function deliverAll(on: WorkerSide, requestId: string): Promise<void> {
    const delivered = Number((await on.redis.hget(on.backlog.cursorKey, requestId)) ?? '0');
    const record = await on.store.get(requestId);
    if (!record) return;
    const entries = await on.store.history(requestId);
    // A batch row's events carry the row (read once per delivery, only when needed).
    let rows: Awaited<ReturnType<RequestStore['batches']['rows']>> | undefined;
    const rowOf = async (execution: string | undefined) => {
      if (!execution || !isBatchRecord(record)) return undefined;
      rows ??= await on.store.batches.rows(requestId);
      const n = Number(execution.slice(execution.lastIndexOf('.') + 1));
      const row = rows[n - 1];
      return row && auditRow(record.sealed.call.kind, execution, row, await on.store.execution(execution));
    };
    for (let s = delivered + 1; s <= entries.length; s++) {
      const entry = entries[s - 1];
      const state = entry && stateOf(entry);
      if (entry && state) {
        try {
          await post(eventBody(record, entry, s, state, await rowOf(entry.execution)));
        } catch (err) {
          throw new StuckAt(entry.at, err);
        }
      }
      await on.redis.hset(on.backlog.cursorKey, requestId, String(s));
    }
  }

  async function process(on: WorkerSide, job: Job, jobToken: string | undefined): Promise<void> {
    const { requestId } = auditJob.parse(job.data);
    const token = randomUUID();
    const locked = await on.redis.set(on.backlog.lockKey(requestId), token, 'PX', 60_000, 'NX');
    if (locked !== 'OK') {
      // Another job delivers this request's events: wait and look again; not a failed try.
      await job.moveToDelayed(Date.now() + (o.lockWaitMs ?? 1_000), jobToken);
      throw new DelayedError();
    }
    try {
      await deliverAll(on, requestId);
      await on.backlog.caughtUp(requestId);
    } catch (err) {
      const at = err instanceof StuckAt ? err.at : deps.now();
      const next = await on.backlog.failed(requestId, deps.now(), at, firstMs, capMs);
      deps.log.warn(
        { err: err instanceof StuckAt ? err.cause : err, requestId, nextTryAt: new Date(next).toISOString() },
        'audit webhook delivery failed; will try again',
      );
    } finally {
      if ((await on.redis.get(on.backlog.lockKey(requestId))) === token)
        await on.redis.del(on.backlog.lockKey(requestId));
    }
  }

  async function enqueue(requestId: string, seq: number): Promise<void> {
    await queue.add('deliver', { requestId, seq }, { jobId: `${requestId}-${seq}`, ...JOB_OPTIONS });
  }

  /**
   * Queues every due try as a new job; then, since a job is queued just after its state change's
   * script and not inside it, schedules a try for any request the cursor shows behind with none.
   */
  async function sweep(on: WorkerSide): Promise<void> {
    const now = deps.now();
    for (const { id, tryNo } of await on.backlog.takeDue(now, capMs + 60_000))
      await queue.add('deliver', { requestId: id, seq: 0 }, { jobId: `${id}-try-${tryNo}`, ...JOB_OPTIONS });
    const ids = await on.store.idsCreatedSince(now - (o.sweepLookbackMs ?? 8 * 86_400_000));
    if (ids.length === 0) return;
    const [lengths, delivered] = await Promise.all([
      on.store.historyLengths(ids),
      on.redis.hmget(on.backlog.cursorKey, ...ids),
    ]);
    const behind = ids.flatMap((id, i) => {
      const length = lengths[i] ?? 0;
      return length > Number(delivered[i] ?? '0') ? [{ id, length }] : [];
    });
    const scheduled = await on.backlog.isScheduled(behind.map((b) => b.id));
    // The grace leaves a just-queued job time to deliver before a second try is queued.
    for (const [i, b] of behind.entries())
      if (!scheduled[i]) await on.backlog.schedule(b.id, b.length, now, 2 * sweepEveryMs);
  }

  return {
    queue,
    enqueue,
    backlog: (store) => new WebhookBacklog(deps.redis, deps.prefix).read(store),
    startWorker(redisAndStore) {
      const on = { ...redisAndStore, backlog: new WebhookBacklog(redisAndStore.redis, deps.prefix) };
      worker = new Worker(AUDIT_QUEUE, (job, token) => process(on, job, token), {
        connection: on.redis,
        prefix: bullPrefix(deps.prefix),
        concurrency: o.concurrency ?? 4,
      });
      worker.on('error', (err) => deps.log.error({ err }, 'audit worker error'));
      sweeper = setInterval(() => {
        sweep(on).catch((err: unknown) => deps.log.warn({ err }, 'audit webhook sweep failed; will try again'));
      }, sweepEveryMs);
      sweeper.unref();
    },
    async close() {
      clearInterval(sweeper);
      await worker?.close();
      await queue.close();
    },
  };
}
