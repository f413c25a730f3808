/**
 * BullMQ queues and their typed job contracts. Money jobs are configured so BullMQ never
 * re-runs them on its own; the request record decides (DESIGN invariant 3).
 */
import { type JobsOptions, Queue } from 'bullmq';
import { z } from 'zod';
import type { Logger } from '../log.js';
import type { RedisClient } from '../store/redis.js';

export const QUEUE_NAMES = { execute: 'execute', expire: 'expire', notify: 'notify', remind: 'remind' } as const;

export const requestJob = z.object({ requestId: z.string().regex(/^R-\d+$/) });
export type RequestJob = z.infer<typeof requestJob>;

/** Issue 13: reminder number n (1-based) or the escalation of a pending request. */
export const remindJob = requestJob.extend({ kind: z.enum(['remind', 'escalate']), n: z.number().int().min(1) });
export type RemindJob = z.infer<typeof remindJob>;

export const NOTIFY_KINDS = ['card', 'outcome', 'unknown'] as const;
export const notifyJob = requestJob.extend({ kind: z.enum(NOTIFY_KINDS) });
export type NotifyJob = z.infer<typeof notifyJob>;

/** Only a call that provably never left is tried again, by the record (queue/execute.ts). */
export const EXECUTE_ATTEMPTS = 3;

const executeOptions = (requestId: string): JobsOptions => ({
  jobId: requestId, // one job per request; the record still guards against a second run
  attempts: EXECUTE_ATTEMPTS,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 7 * 86_400 },
  removeOnFail: { age: 30 * 86_400 },
});

export interface Queues {
  execute: Queue;
  expire: Queue;
  notifications: Queue;
  enqueueExecution(requestId: string): Promise<void>;
  /** At quorum: one add (BullMQ ignores a second add of the same job id). */
  enqueueApproved(requestId: string): Promise<void>;
  scheduleExpiry(requestId: string, delayMs: number): Promise<void>;
  /** `once`: a job id that makes repeats a no-op while the job waits (the reconciler's). */
  notify(job: NotifyJob, once?: string): Promise<void>;
  /** Issue 13: after a released freeze, a held (delayed) execution runs now; a missing one is queued. */
  releaseHeld(requestId: string): Promise<void>;
  /** Issue 13: reminders and escalation, delayed jobs with deterministic ids (run once anywhere). */
  reminders: Queue;
  scheduleReminder(job: RemindJob, delayMs: number): Promise<void>;
  close(): Promise<void>;
}

export function bullPrefix(prefix: string): string {
  return `${prefix}:bull`;
}

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
  let seq = 0;
  return {
    execute,
    expire,
    notifications: notify,
    async enqueueExecution(requestId) {
      const existing = await execute.getJob(requestId);
      if (existing) {
        const state = await existing.getState();
        if (state !== 'completed' && state !== 'failed') return;
        // A finished job keeps its id; remove it so the reconciler's re-add is not ignored.
        // Safe: the record refuses to execute anything not in `approved`.
        await existing.remove();
      }
      await execute.add('execute', { requestId } satisfies RequestJob, executeOptions(requestId));
    },
    async enqueueApproved(requestId) {
      await execute.add('execute', { requestId } satisfies RequestJob, executeOptions(requestId));
    },
    reminders,
    async scheduleReminder(job, delayMs) {
      await reminders.add(job.kind, job, {
        jobId: job.kind === 'remind' ? `remind-${job.requestId}-${job.n}` : `escalate-${job.requestId}`,
        delay: Math.max(0, delayMs),
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 7 * 86_400 },
      });
    },
    async releaseHeld(requestId) {
      const job = await execute.getJob(requestId);
      if (job && (await job.getState()) === 'delayed')
        await job.promote().catch(() => this.enqueueExecution(requestId));
      else await this.enqueueExecution(requestId);
    },
    async scheduleExpiry(requestId, delayMs) {
      await expire.add('expire', { requestId } satisfies RequestJob, {
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
      await notify.add('notify', job, {
        // Unique per enqueue: each state change deserves its own card refresh.
        jobId: once ?? `${job.requestId}-${job.kind}-${Date.now()}-${seq}`,
        attempts: 25,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 30 * 86_400 },
      });
    },
    async close() {
      await Promise.all([execute.close(), expire.close(), notify.close(), reminders.close()]);
    },
  };
}
