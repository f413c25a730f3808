/**
 * One job type's contract (issue 18 §1; STYLE "Every job type has a typed contract"): its queue,
 * a zod schema for its data, its worker options and `perform`, which calls app/ or a processor.
 */
import type { Job, Queue } from 'bullmq';
import type { z } from 'zod';
import type { BatchRunConfig } from '../../app/batch-run.js';
import type { AppDeps } from '../../app/deps.js';
import type { Notifier } from '../../app/notifier.js';
import type { WeeklyReportDeps } from '../../app/weekly-report.js';
import type { WalletAlias } from '../../domain/wallets.js';
import type { BalanceHistory } from '../../store/balance-history.js';
import type { RateLimiter } from '../../store/rate-limiter.js';
import type { ProgressLimits } from '../batch-progress.js';
import type { Queues } from '../queues.js';
import type { RemindDeps } from '../remind.js';

/** The ports the workers share with the use cases: declared once, in AppDeps (issue 18 §4). */
export type SharedPorts = Pick<AppDeps, 'service' | 'store' | 'registry' | 'controls' | 'log' | 'now'>;

/** What every perform may use: the worker's dependencies. */
export type JobContext = SharedPorts & {
  /** The BullMQ queues themselves (AppDeps names only the jobs the use cases schedule). */
  queues: Queues;
  /** How workers talk to people (slack/notifier.ts in production). */
  notifier: Notifier;
  workerName: string;
  approvalsChannel: string;
  /** Issue 13: who is reminded and escalated to, and how often. */
  reminders: Pick<RemindDeps, 'approvers' | 'escalateTo' | 'reminderAfterMs' | 'reminderMax'>;
  /** How long a job waits before looking again (freeze, Slack's rate limit, a newer version). */
  freezeRecheckMs: number;
  /** Issue 20: BATCH_RATE, shared by every process (undefined: off). */
  batchRate?: Pick<RateLimiter, 'admit'> | undefined;
  /** Issue 20: the batch progress message's throttles, shared by every process. */
  progressLimits?: ProgressLimits | undefined;
  /** Issue 19: WAIT 1 after an execution's start (undefined: not checked). */
  durable?: () => Promise<boolean>;
  /** Issue 20: BATCH_PAUSE_AFTER_FAILURES and BATCH_HOLD_LIMIT. */
  batch?: BatchRunConfig | undefined;
  /** Issue 24: balance snapshots every SNAPSHOT_EVERY (undefined: none taken). */
  snapshots?: { history: BalanceHistory; wallets: readonly WalletAlias[]; everyMs: number } | undefined;
  /** Issue 24: the weekly report (undefined: REPORT_AT unset). */
  weekly?: WeeklyReportDeps | undefined;
};

/** What perform asks of BullMQ: done, or wait (moved to the delayed set without using an attempt). */
export type Performed = { wait: number } | { done: unknown };

export interface JobType<S extends z.ZodType = z.ZodType> {
  queue: string;
  schema: S;
  /** Worker options beyond the shared ones. */
  worker: { concurrency?: number; maxStalledCount?: number };
  /** `own`: this type's queue, when it has `start` (issue 24: jobs that schedule their next run). */
  perform(ctx: JobContext, data: z.infer<S>, job: Job, own?: Queue): Promise<Performed>;
  /** Issue 24: run at every worker start and reconcile round (schedules a chain of delayed jobs). */
  start?(ctx: JobContext, own: Queue): Promise<void>;
  /** A job that failed for good (or stalled): what to settle. */
  onFailed?(ctx: JobContext, job: Job): Promise<void>;
}

export const defineJob = <S extends z.ZodType>(type: JobType<S>): JobType<S> => type;
