/**
 * The ports the execution use cases run behind: queue/ implements JobQueue over
 * BullMQ, slack/ implements the Notifier (app/notifier.ts), the clock is a function.
 */
import type { SecondOpinion } from '../domain/rules/second-opinion.js';

export type { Notifier } from './notifier.js';

/** Milliseconds since the epoch; tests pass their own. */
export type Clock = () => number;

// 'not-sent': a try went back to queued unsent; the thread says so once per try.
// 'progress': a batch's progress message, throttled (app/notices/batch-progress.ts).
// 'proposal': a not-paid proposal waits; the card shows it and the thread mentions the approvers.
// 'run-skipped': a series' runs were skipped; one thread reply says which and why, each once.
// 'run-notice': the notice before a series' run (`run`), with its Skip button, once per run.
// 'series-ended': a person ended a series; its thread says who, and the run it cancelled, once.
export const NOTIFY_KINDS = [
  'card',
  'outcome',
  'unknown',
  'not-sent',
  'progress',
  'proposal',
  'screened',
  'run-skipped',
  'run-notice',
  'series-ended',
] as const;
export interface NotifyRequest {
  requestId: string;
  kind: (typeof NOTIFY_KINDS)[number];
  /** 'run-notice': the run of the series it announces. */
  run?: number | undefined;
}

export interface JobQueue {
  /** A card refresh or a reply, as a durable job; `once` makes repeats a no-op while it waits. */
  notify(job: NotifyRequest, once?: string): Promise<void>;
  /** Try number `attempt` of an execution, as its own job (fresh id: domain/approval.ts tryJobId). */
  enqueueTry(executionId: string, attempt: number, delayMs?: number): Promise<void>;
  /** Whether this job is running now (a worker holds it). */
  isRunning(jobId: string): Promise<boolean>;
}

/** Reminder number n (1-based) or the escalation of a pending request. */
export interface ReminderJob {
  v?: number | undefined;
  requestId: string;
  kind: 'remind' | 'escalate';
  n: number;
}

/** The jobs the approval use cases schedule (app/ names the port, queue/ implements it). */
export interface ApprovalJobs extends JobQueue {
  /** At quorum: one add (a second add of the same job id is ignored). */
  enqueueApproved(requestId: string): Promise<void>;
  scheduleExpiry(requestId: string, delayMs: number): Promise<void>;
  /** After a released freeze, a held (delayed) try runs now; a missing one is queued. */
  releaseHeld(executionId: string, attempt: number): Promise<void>;
  scheduleReminder(job: ReminderJob, delayMs: number): Promise<void>;
  /** A live series' run at `at` (ms): one delayed job, whichever worker adds it. */
  scheduleSeriesRun(seriesId: string, at: number, delayMs: number): Promise<void>;
}

/**
 * The optional second opinion (SCREENING_URL, service/screening-service.ts): one destination
 * address asked; never throws (any failure, or `signal` aborting first, is `unanswered`).
 */
export interface ScreeningService {
  ask(address: string, signal?: AbortSignal): Promise<SecondOpinion>;
  close(): Promise<void>;
}
