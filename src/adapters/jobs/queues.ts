/**
 * BullMQ queues (their jobs' data contracts are in job-data.ts). Money jobs are configured so BullMQ never
 * re-runs them on its own; the request record decides (DESIGN invariant 3).
 */
import { type JobsOptions, Queue } from 'bullmq';
import { EXECUTE_TRIES } from '../../app/execute-one.js';
import { type JobQueue, NOTIFY_KINDS } from '../../app/ports.js';
import { executionId, parseExecutionId, tryJobId, wakeRunnerOf } from '../../domain/approval.js';
import type { Logger } from '../../log.js';
import type { RedisClient } from '../../redis-client.js';
import {
  JOB_VERSION,
  type NotifyJob,
  QUEUE_NAMES,
  type RemindJob,
  type RequestJob,
  type SeriesJob,
} from './job-data.js';

export type { ExecuteJob, NotifyJob, RemindJob, RequestJob } from './job-data.js';
export { executeJob, JOB_VERSION, notifyJob, QUEUE_NAMES, remindJob, requestJob } from './job-data.js';
export { NOTIFY_KINDS };

/** Only a call that provably never left is tried again, as a new try (app/execute-one.ts). */
export const EXECUTE_ATTEMPTS = EXECUTE_TRIES;

/** One job per try, never retried by BullMQ itself: the execution record decides (DESIGN invariant 3). */
export const executeOptions = (id: string, delayMs = 0): JobsOptions => ({
  jobId: id,
  attempts: 1,
  ...(delayMs > 0 ? { delay: delayMs } : {}),
  removeOnComplete: { age: 7 * 86_400 },
  removeOnFail: { age: 30 * 86_400 },
});

export interface Queues extends JobQueue {
  execute: Queue;
  expire: Queue;
  notifications: Queue;
  /** A single request's first try (execution 1, try 1); the reconciler queues the rest. */
  enqueueExecution(requestId: string): Promise<void>;
  /** At quorum: one add (BullMQ ignores a second add of the same job id). */
  enqueueApproved(requestId: string): Promise<void>;
  scheduleExpiry(requestId: string, delayMs: number): Promise<void>;
  /** `once`: a job id that makes repeats a no-op while the job waits (the reconciler's). */
  notify(job: NotifyJob, once?: string): Promise<void>;
  /** After a released freeze, a held (delayed) try runs now; a missing one is queued. */
  releaseHeld(executionId: string, attempt: number): Promise<void>;
  /** Reminders and escalation, delayed jobs with deterministic ids (run once anywhere). */
  reminders: Queue;
  scheduleReminder(job: RemindJob, delayMs: number): Promise<void>;
  /** One delayed job per live series between runs: its id names the run's time. */
  series: Queue;
  scheduleSeriesRun(seriesId: string, at: number, delayMs: number): Promise<void>;
  close(): Promise<void>;
}

export function bullPrefix(prefix: string): string {
  return `${prefix}:bull`;
}

/**
 * A worker process's wake-runner lease (wake-runner.ts): while it exists, that process's runs
 * from the wake list may still be going, as a BullMQ job's lock says of the job.
 */
export const runnerLeaseKey = (prefix: string, runner: string): string => `${bullPrefix(prefix)}:runner:${runner}`;

/**
 * Queues on the given connection: the fail-fast one for Slack handling, the patient one for
 * workers. A Queue without an error listener would crash the process on a Redis error.
 */
export function createQueues(connection: RedisClient, prefix: string, log: Logger): Queues {
  const opts = { connection, prefix: bullPrefix(prefix) };
  const open = (name: string) => {
    const queue = new Queue(name, opts);
    // The connection's own listener already reported the outage once (store/redis.ts).
    queue.on('error', (err) => log.debug({ err, queue: name }, 'queue connection error'));
    return queue;
  };
  const execute = open(QUEUE_NAMES.execute);
  const expire = open(QUEUE_NAMES.expire);
  const notify = open(QUEUE_NAMES.notify);
  const reminders = open(QUEUE_NAMES.remind);
  const series = open(QUEUE_NAMES.series);
  let seq = 0;
  /** One try of an execution as a job: every execute job has this data and these options. */
  const addTry = async (id: string, attempt: number, jobId: string, delayMs = 0) => {
    await execute.add('execute', { v: JOB_VERSION, executionId: id, attempt }, executeOptions(jobId, delayMs));
  };
  return {
    execute,
    expire,
    notifications: notify,
    async enqueueTry(id, attempt, delayMs = 0) {
      const jobId = tryJobId(id, attempt);
      const existing = await execute.getJob(jobId);
      if (existing) {
        const state = await existing.getState();
        if (state !== 'completed' && state !== 'failed') return;
        // This try's job ended without starting (the start script refused it): a re-add of its
        // id would be dropped silently, so remove it first. Safe: the record decides.
        await existing.remove();
      }
      // A job written before format 2 (id = the request id) may still hold execution 1.
      const parsed = parseExecutionId(id);
      if (attempt === 1 && parsed?.n === 1) {
        const legacy = await execute.getJob(parsed.approvalId);
        if (legacy && !['completed', 'failed'].includes(await legacy.getState())) return;
      }
      await addTry(id, attempt, jobId, delayMs);
    },
    async isRunning(jobId) {
      const runner = wakeRunnerOf(jobId);
      if (runner) return (await connection.exists(runnerLeaseKey(prefix, runner))) === 1;
      return (await execute.getJobState(jobId)) === 'active';
    },
    async enqueueExecution(requestId) {
      await this.enqueueTry(executionId(requestId, 1), 1);
    },
    async enqueueApproved(requestId) {
      const id = executionId(requestId, 1);
      await addTry(id, 1, tryJobId(id, 1));
    },
    reminders,
    async scheduleReminder(job, delayMs) {
      await reminders.add(
        job.kind,
        { ...job, v: JOB_VERSION },
        {
          jobId: job.kind === 'remind' ? `remind-${job.requestId}-${job.n}` : `escalate-${job.requestId}`,
          delay: Math.max(0, delayMs),
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: 86_400 },
          removeOnFail: { age: 7 * 86_400 },
        },
      );
    },
    series,
    async scheduleSeriesRun(seriesId, at, delayMs) {
      // The same run's job added by two workers is one job (BullMQ ignores a known id).
      await series.add('series', { v: JOB_VERSION, seriesId, at } satisfies SeriesJob, {
        jobId: `series-${seriesId}-${at}`,
        delay: Math.max(0, delayMs),
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 7 * 86_400 },
      });
    },
    async releaseHeld(id, attempt) {
      const parsed = parseExecutionId(id);
      const legacy = attempt === 1 && parsed?.n === 1 ? await execute.getJob(parsed.approvalId) : undefined;
      const job = (await execute.getJob(tryJobId(id, attempt))) ?? legacy;
      if (job && (await job.getState()) === 'delayed') await job.promote().catch(() => this.enqueueTry(id, attempt));
      else await this.enqueueTry(id, attempt);
    },
    async scheduleExpiry(requestId, delayMs) {
      await expire.add('expire', { v: JOB_VERSION, requestId } satisfies RequestJob, {
        jobId: `expire-${requestId}`,
        delay: Math.max(0, delayMs),
        attempts: 10,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 30 * 86_400 },
      });
    },
    async notify(job, once) {
      seq += 1;
      await notify.add(
        'notify',
        { ...job, v: JOB_VERSION },
        {
          // Unique per enqueue: each state change deserves its own card refresh.
          jobId: once ?? `${job.requestId}-${job.kind}-${Date.now()}-${seq}`,
          attempts: 25,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: true,
          removeOnFail: { age: 30 * 86_400 },
        },
      );
    },
    async close() {
      await Promise.all([execute.close(), expire.close(), notify.close(), reminders.close(), series.close()]);
    },
  };
}
