/**
 * The queues' names and the zod contracts of their jobs' data: what a job handler parses, kept
 * apart from the BullMQ and Redis plumbing (queues.ts) so a handler needs nothing else.
 */
import { z } from 'zod';
import { NOTIFY_KINDS } from '../../app/ports.js';
import { APPROVAL_ID, EXECUTION_ID, executionId } from '../../domain/approval.js';
import { isSeriesId } from '../../domain/series.js';

export const QUEUE_NAMES = {
  execute: 'execute',
  expire: 'expire',
  notify: 'notify',
  remind: 'remind',
  series: 'series',
} as const;

/**
 * Job data carries a format version `v`; this code writes JOB_VERSION and reads it and
 * the unversioned data written before (v 1). A newer version is left untouched (queue/jobs/index.ts).
 */
export const JOB_VERSION = 2;

/** A job about one approval: a payment, a batch or a series (its card, expiry, reminders). */
export const requestJob = z.object({ v: z.number().int().optional(), requestId: z.string().regex(APPROVAL_ID) });
export type RequestJob = z.infer<typeof requestJob>;

/** One try of one execution; old jobs (`{ requestId }`, id = the request id) ran its execution 1. */
export const executeJob = z.union([
  z.object({
    v: z.literal(JOB_VERSION),
    executionId: z.string().regex(EXECUTION_ID),
    attempt: z.number().int().min(1),
  }),
  // Written before executions had ids, by payments only: a series never had such a job.
  z
    .object({ v: z.number().int().optional(), requestId: z.string().regex(/^[RB]-\d+$/) })
    .transform((old) => ({ v: JOB_VERSION, executionId: executionId(old.requestId, 1), attempt: 1 })),
]);
export type ExecuteJob = z.infer<typeof executeJob>;

/** Reminder number n (1-based) or the escalation of a pending request. */
export const remindJob = requestJob.extend({ kind: z.enum(['remind', 'escalate']), n: z.number().int().min(1) });
export type RemindJob = z.infer<typeof remindJob>;

export const notifyJob = requestJob.extend({ kind: z.enum(NOTIFY_KINDS), run: z.number().int().min(1).optional() });
export type NotifyJob = z.infer<typeof notifyJob>;

/** A live series' next run: created (or skipped) when the job runs, then the next job is added. */
export const seriesJob = z.object({
  v: z.number().int().optional(),
  seriesId: z.string().refine(isSeriesId, 'not a series id'),
  /** The moment it was set to wake at (a job written before it has none). */
  at: z.number().int().optional(),
});
export type SeriesJob = z.infer<typeof seriesJob>;
