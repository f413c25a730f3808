/**
 * The workers: execute (money, at most once), expire (pending → expired) and notify (Slack).
 * Job data is parsed, never cast; bad data fails the job for good.
 */
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { z } from 'zod';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { ControlStore } from '../store/controls.js';
import type { RedisClient } from '../store/redis.js';
import type { Registry } from '../store/registry.js';
import type { RequestStore } from '../store/requests.js';
import { executeRequest, markUnknown } from './execute.js';
import { type Notifier, RateLimitedError } from './notifier.js';
import { notify } from './notify.js';
import { bullPrefix, notifyJob, QUEUE_NAMES, type Queues, remindJob, requestJob } from './queues.js';
import { reconcile } from './reconcile.js';
import { type RemindDeps, remind } from './remind.js';

export interface WorkerDeps {
  /** The patient connection (maxRetriesPerRequest null). */
  redis: RedisClient;
  prefix: string;
  service: ServiceClient;
  store: RequestStore;
  registry: Registry;
  /** Issue 13: freeze and velocity ledger. */
  controls: ControlStore;
  queues: Queues;
  /** How workers talk to people (slack/notifier.ts in production). */
  notifier: Notifier;
  log: Logger;
  approvalsChannel: string;
  now: () => number;
  name?: string;
  /** Tests shorten these; production keeps BullMQ's defaults. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  reconcileEveryMs?: number;
  /** Issue 13: how often a job held by the freeze looks again (a release promotes it at once). */
  freezeRecheckMs?: number;
  /** Issue 13: who is reminded and escalated to, and how often. */
  reminders: Pick<RemindDeps, 'approvers' | 'escalateTo' | 'reminderAfterMs' | 'reminderMax'>;
}

const FREEZE_RECHECK_MS = 30_000;

function parse<T extends z.ZodType>(schema: T, job: Job): z.infer<T> {
  const r = schema.safeParse(job.data);
  if (!r.success)
    throw new UnrecoverableError(`bad job data for ${job.name}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

export interface Workers {
  close(): Promise<void>;
  reconcileNow(): Promise<void>;
}

export function startWorkers(deps: WorkerDeps): Workers {
  const name = deps.name ?? `worker-${process.pid}`;
  const base = {
    connection: deps.redis,
    prefix: bullPrefix(deps.prefix),
    name,
    // Tests shorten these for every queue: a killed worker's job of any kind is noticed quickly.
    ...(deps.lockDurationMs ? { lockDuration: deps.lockDurationMs } : {}),
    ...(deps.stalledIntervalMs ? { stalledInterval: deps.stalledIntervalMs } : {}),
  };
  const log = deps.log.child({ component: 'worker', worker: name });

  const execute = new Worker(
    QUEUE_NAMES.execute,
    async (job, token) => {
      const { requestId } = parse(requestJob, job);
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const result = await executeRequest(
        {
          service: deps.service,
          store: deps.store,
          registry: deps.registry,
          controls: deps.controls,
          queues: deps.queues,
          log,
          workerName: name,
        },
        requestId,
        last,
      );
      if (result === 'frozen') {
        // issue 13: wait, without failing or using an attempt; an approved release promotes it.
        await job.moveToDelayed(Date.now() + (deps.freezeRecheckMs ?? FREEZE_RECHECK_MS), token);
        throw new DelayedError();
      }
      return result;
    },
    {
      ...base,
      concurrency: 4,
      // BullMQ is at-least-once; money jobs must never be re-run by it on its own.
      maxStalledCount: 0,
    },
  );
  execute.on('failed', (job, err) => {
    if (!job) return;
    log.error({ requestId: job.id, err }, 'execute job failed');
    // A stalled job lands here without our code having finished: settle the record now.
    if (job.id)
      settleStalled(job.id).catch((e: unknown) =>
        log.error({ err: e, requestId: job.id }, 'could not settle a stalled job now; the reconciler will'),
      );
  });

  const settleStalled = async (id: string) => {
    const record = await deps.store.get(id);
    if (record?.state === 'executing' && (await deps.queues.execute.getJobState(id)) !== 'active') {
      await markUnknown(
        { store: deps.store, queues: deps.queues, log },
        id,
        'the worker running it stopped before the service answered; it may or may not have gone through',
      );
    }
  };

  const expire = new Worker(
    QUEUE_NAMES.expire,
    async (job) => {
      const { requestId } = parse(requestJob, job);
      const r = await deps.store.transition(
        requestId,
        ['pending'],
        'expired',
        { event: 'expired' },
        { decidedAt: String(deps.now()) },
      );
      if (r.ok) await deps.queues.notify({ requestId, kind: 'outcome' });
    },
    base,
  );

  const notifier = new Worker(
    QUEUE_NAMES.notify,
    async (job, token) => {
      try {
        await notify(
          { notifier: deps.notifier, store: deps.store, log, approvalsChannel: deps.approvalsChannel },
          parse(notifyJob, job),
        );
      } catch (err) {
        if (!(err instanceof RateLimitedError) || token === undefined) throw err;
        // Slack asked us to wait: the job waits in BullMQ's delayed set, costing no attempt.
        await job.moveToDelayed(Date.now() + err.retryAfterMs, token);
        throw new DelayedError();
      }
    },
    { ...base, concurrency: 4 },
  );
  notifier.on('failed', (job, err) =>
    log.warn({ jobId: job?.id, err, attempts: job?.attemptsMade }, 'notify failed; will retry'),
  );

  // Issue 13: reminders and escalation; a Slack rate limit waits like a notify job.
  const reminders = new Worker(
    QUEUE_NAMES.remind,
    async (job, token) => {
      try {
        return await remind(
          { ...deps.reminders, store: deps.store, queues: deps.queues, notifier: deps.notifier, log, now: deps.now },
          parse(remindJob, job),
        );
      } catch (err) {
        if (!(err instanceof RateLimitedError) || token === undefined) throw err;
        await job.moveToDelayed(Date.now() + err.retryAfterMs, token);
        throw new DelayedError();
      }
    },
    base,
  );

  // Without an error listener a Worker's Redis error would crash the process.
  for (const [queue, worker] of [
    [QUEUE_NAMES.execute, execute],
    [QUEUE_NAMES.expire, expire],
    [QUEUE_NAMES.notify, notifier],
    [QUEUE_NAMES.remind, reminders],
  ] as const)
    worker.on('error', (err) => log.warn({ err, queue }, 'worker error; BullMQ retries by itself'));

  const reconcileNow = () => reconcile({ store: deps.store, queues: deps.queues, log, now: deps.now });
  const runReconcile = () => {
    reconcileNow().catch((err: unknown) => log.error({ err }, 'reconcile failed'));
  };
  runReconcile();
  const timer = setInterval(runReconcile, deps.reconcileEveryMs ?? 30_000);
  timer.unref();

  return {
    reconcileNow,
    async close() {
      clearInterval(timer);
      // Finish what is running before letting go (SIGTERM must not cut a money call in half).
      await Promise.all([execute.close(), expire.close(), notifier.close(), reminders.close()]);
    },
  };
}
