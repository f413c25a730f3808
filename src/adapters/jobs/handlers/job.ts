/**
 * One job type's contract (STYLE "Every job type has a typed contract"): its queue,
 * a zod schema for its data (the worker parses every job with it before `perform`), its worker
 * options and `perform`, which calls the worker app and maps its answer to done, wait or fail.
 */
import type { Job, Queue } from 'bullmq';
import type { z } from 'zod';
import type { JobOutcome, WorkerApp } from '../../../app/worker-app.js';
import type { Logger } from '../../../log.js';
import type { Slots } from '../slots.js';

/** What every perform may use: the worker role's app, and the worker's own timings. */
export interface JobContext {
  app: WorkerApp;
  log: Logger;
  now: () => number;
  /** How long a job waits before looking again (freeze, a newer version). */
  freezeRecheckMs: number;
  /** The process's service calls at a time, shared with the wake runner (slots.ts). */
  executionSlots: Slots;
}

/** What perform asks of BullMQ: done, or wait (moved to the delayed set without using an attempt). */
export type Performed = { wait: number } | { done: unknown };

export interface JobType<S extends z.ZodType = z.ZodType> {
  queue: string;
  schema: S;
  /**
   * Worker options beyond the shared ones; `workers`: how many BullMQ Workers take this queue in
   * each worker process (default 1), each running `concurrency` jobs at a time.
   */
  worker: { concurrency?: number; maxStalledCount?: number; workers?: number };
  /** `own`: this type's queue, when it has `start` (jobs that schedule their next run). */
  perform(ctx: JobContext, data: z.infer<S>, job: Job, own?: Queue): Promise<Performed>;
  /** Run at every worker start and reconcile round (schedules a chain of delayed jobs). */
  start?(ctx: JobContext, own: Queue): Promise<void>;
  /** A job that failed for good (or stalled): what to settle. */
  onFailed?(ctx: JobContext, job: Job): Promise<void>;
}

/** A use case's answer as BullMQ's: wait in the delayed set, or done (a thrown error fails the job). */
export const performed = <T>(ctx: JobContext, r: JobOutcome<T>): Performed =>
  r.status === 'done' ? { done: r.result } : { wait: r.status === 'wait' ? r.ms : ctx.freezeRecheckMs };

export const defineJob = <S extends z.ZodType>(type: JobType<S>): JobType<S> => type;
