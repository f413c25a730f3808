/**
 * The workers: BullMQ Workers for every job type in the registry (handlers/index.ts), as many as
 * its contract's `worker.workers` (one unless it says otherwise), and the wake runner that starts
 * a payment the moment its quorum is reached (wake-runner.ts). The execute queue's Workers and
 * the wake runner share the process's execution slots (slots.ts). Job data is parsed, never cast;
 * bad data fails the job for good; data of a newer format version is left untouched (delayed,
 * logged once) for a newer worker.
 */
import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { WorkerApp } from '../../app/worker-app.js';
import type { Logger } from '../../log.js';
import type { RedisClient } from '../../redis-client.js';
import { EXECUTION_SLOTS } from './handlers/execute.js';
import { JOB_TYPES, versionOf } from './handlers/index.js';
import type { JobContext, JobType } from './handlers/job.js';
import { bullPrefix, JOB_VERSION } from './queues.js';
import { createSlots } from './slots.js';
import { startWakeRunner } from './wake-runner.js';

/** The worker role's app (built by the composition root) and the BullMQ plumbing around it. */
export interface WorkerDeps {
  app: WorkerApp;
  log: Logger;
  now: () => number;
  /** The patient connection (maxRetriesPerRequest null). */
  redis: RedisClient;
  prefix: string;
  name?: string | undefined;
  /** Tests shorten these; production keeps BullMQ's defaults. */
  lockDurationMs?: number | undefined;
  stalledIntervalMs?: number | undefined;
  reconcileEveryMs?: number | undefined;
  /** How often a job held by the freeze looks again (a release promotes it at once). */
  freezeRecheckMs?: number | undefined;
  /** Tests: the job data version this worker understands (default JOB_VERSION). */
  jobVersion?: number | undefined;
  /**
   * The wake list's key (store/store-keys.ts StoreKeys.wake). Without it this worker takes no
   * wakes, as a worker of an earlier version: approvals reach it as jobs only (tests).
   */
  wakeList?: string | undefined;
}

/** BullMQ's default lock duration: how long a killed worker's lease on its runs outlives it. */
const LOCK_DURATION_MS = 30_000;

const FREEZE_RECHECK_MS = 30_000;
const NEWER_VERSION_RECHECK_MS = 60_000;

export interface Workers {
  close(): Promise<void>;
  reconcileNow(): Promise<void>;
  /** The first scheduling of self-scheduling jobs (snapshots, weekly report) is done. */
  scheduled: Promise<void>;
}

export function startWorkers(deps: WorkerDeps): Workers {
  const name = deps.name ?? `worker-${process.pid}`;
  const log = deps.log.child({ component: 'worker', worker: name });
  const executionSlots = createSlots(EXECUTION_SLOTS);
  const ctx: JobContext = {
    app: deps.app,
    log,
    now: deps.now,
    freezeRecheckMs: deps.freezeRecheckMs ?? FREEZE_RECHECK_MS,
    executionSlots,
  };
  const base = {
    connection: deps.redis,
    prefix: bullPrefix(deps.prefix),
    name,
    // Tests shorten these for every queue: a killed worker's job of any kind is noticed quickly.
    ...(deps.lockDurationMs ? { lockDuration: deps.lockDurationMs } : {}),
    ...(deps.stalledIntervalMs ? { stalledInterval: deps.stalledIntervalMs } : {}),
  };
  const understood = deps.jobVersion ?? JOB_VERSION;
  const newerSeen = new Set<string>();

  const run = (type: JobType) => async (job: Job, token?: string) => {
    const wait = async (ms: number) => {
      if (token === undefined) throw new Error('cannot delay a job without its lock token');
      await job.moveToDelayed(Date.now() + ms, token);
      throw new DelayedError();
    };
    const v = versionOf(job.data);
    if (v > understood) {
      // Written by a newer Rampart: leave it for a worker that understands it (rolling upgrades).
      if (!newerSeen.has(`${type.queue}:${job.id}`)) {
        newerSeen.add(`${type.queue}:${job.id}`);
        log.warn({ queue: type.queue, jobId: job.id, v, understood }, 'job of a newer format left for a newer worker');
      }
      return wait(NEWER_VERSION_RECHECK_MS);
    }
    const parsed = type.schema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`bad job data for ${job.name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const r = await type.perform(ctx, parsed.data, job, own.get(type.queue));
    return 'wait' in r ? wait(r.wait) : r.done;
  };

  // Job types that schedule their own next run get a queue of their own to add to.
  const own = new Map<string, Queue>();
  for (const type of JOB_TYPES.filter((t) => t.start)) {
    const queue = new Queue(type.queue, { connection: deps.redis, prefix: bullPrefix(deps.prefix) });
    queue.on('error', (err) => log.debug({ err, queue: type.queue }, 'queue connection error'));
    own.set(type.queue, queue);
  }
  const startTypes = () =>
    Promise.all(
      JOB_TYPES.map((type) => {
        const queue = own.get(type.queue);
        return (
          queue &&
          type.start?.(ctx, queue).catch((err: unknown) => log.warn({ err, queue: type.queue }, 'could not schedule'))
        );
      }),
    );

  const workers = JOB_TYPES.flatMap((type) => {
    const { workers: count = 1, ...options } = type.worker;
    // One stalled-job check per queue and process is enough (it scans the whole queue): the
    // other Workers of the same queue skip theirs.
    return Array.from({ length: count }, (_, i) => startWorker(type, { ...options, skipStalledCheck: i > 0 }));
  });

  function startWorker(
    type: JobType,
    options: Omit<JobType['worker'], 'workers'> & { skipStalledCheck: boolean },
  ): Worker {
    const worker = new Worker(type.queue, run(type), { ...base, ...options });
    // Without an error listener a Worker's Redis error would crash the process.
    worker.on('error', (err) => log.warn({ err, queue: type.queue }, 'worker error; BullMQ retries by itself'));
    worker.on('failed', (job, err) => {
      if (!job) return;
      log.warn({ queue: type.queue, jobId: job.id, err, attempts: job.attemptsMade }, 'job failed');
      type
        .onFailed?.(ctx, job)
        .catch((e: unknown) =>
          log.error({ err: e, jobId: job.id }, 'could not settle a failed job; the reconciler will'),
        );
    });
    return worker;
  }

  const wakes =
    deps.wakeList === undefined
      ? undefined
      : startWakeRunner({
          app: deps.app,
          log,
          redis: deps.redis,
          prefix: deps.prefix,
          listKey: deps.wakeList,
          leaseMs: deps.lockDurationMs ?? LOCK_DURATION_MS,
          slots: executionSlots,
          recheckMs: ctx.freezeRecheckMs,
        });

  // Old records are migrated once, before the reconciler reads them (app/executions/migrate.ts).
  const migrated = deps.app.executions.migrate();
  const reconcileNow = async () => {
    await migrated;
    await deps.app.executions.reconcile();
  };
  const runReconcile = () => {
    reconcileNow().catch((err: unknown) => log.error({ err }, 'reconcile failed'));
  };
  runReconcile();
  const scheduled = startTypes().then(() => undefined);
  const timer = setInterval(() => {
    runReconcile();
    void startTypes();
  }, deps.reconcileEveryMs ?? 30_000);
  timer.unref();

  return {
    reconcileNow,
    scheduled,
    async close() {
      clearInterval(timer);
      // Nothing waiting for a slot starts now (slots.ts); what runs finishes before letting go
      // (SIGTERM must not cut a money call in half).
      executionSlots.close();
      await Promise.all([...workers.map((w) => w.close()), wakes?.close()]);
      await Promise.all([...own.values()].map((q) => q.close()));
    },
  };
}
