/**
 * Running a batch: its rows one at a time, as a chain of jobs — each row's end queues
 * the next row's try (a fresh job id, domain/approval.ts tryJobId); resume and the reconciler
 * queue the first row still queued. These only make a row TRY: whether it starts is decided in
 * its start script (store/lua/start.lua: approval runnable, not paused or stopping, no
 * other row of the batch executing, the row before it final, not frozen).
 */
import { type ExecutionState, RUNNABLE_APPROVAL_STATES } from '../domain/approval.js';
import type { Rate } from '../domain/rate.js';
import type { HistoryEntry, SealedRequest } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import type { ControlStore } from '../store/controls.js';
import type { BatchFinish, ExecutionTransition } from '../store/executions.js';
import type { RequestStore } from '../store/requests.js';
import type { JobQueue } from './ports.js';

export interface BatchRunDeps {
  store: RequestStore;
  jobs: Pick<JobQueue, 'enqueueTry'>;
  log: Logger;
}

const PAGE = 200;

/**
 * What a batch row's end queues, side by side (one round trip): the
 * card only when the batch's state changed (began, paused, stopping, done), the row is unknown or
 * the batch is not running (its card prints the counts) — otherwise its progress, throttled — and the next row's try when the finish script
 * read that row `queued` and the batch runnable (no read after the script). The try only makes
 * the row TRY: its start script checks everything again.
 */
export async function afterRow(
  deps: BatchRunDeps & { jobs: Pick<JobQueue, 'enqueueTry' | 'notify'> },
  approvalId: string,
  to: ExecutionState,
  moved: ExecutionTransition,
): Promise<void> {
  const { approval, next } = moved;
  const runnable = approval?.after !== undefined && RUNNABLE_APPROVAL_STATES.has(approval.after);
  // Paused, stopping and done cards print the counts: a row ending in those states redraws too.
  const changed = to === 'unknown' || approval?.before !== approval?.after || !runnable;
  const goOn = (to === 'succeeded' || to === 'failed') && runnable && next?.state === 'queued';
  await Promise.all([
    changed ? deps.jobs.notify({ requestId: approvalId, kind: 'card' }) : scheduleProgress(deps, approvalId),
    goOn && next ? deps.jobs.enqueueTry(next.id, next.tries + 1) : undefined,
    // The batch ended: the next batch of its wallet is tried now, not at the reconciler's round.
    approval?.after === 'done' ? handOnTurn(deps, approvalId) : undefined,
  ]);
}

/** A lost progress job (its claim's holder died) holds the next one back at most this long. */
export const PROGRESS_PENDING_MS = 60_000;

/** One progress job, unless one is already waiting (it draws what is current). */
export async function scheduleProgress(
  deps: { store: RequestStore; jobs?: Pick<JobQueue, 'notify'> | undefined },
  id: string,
): Promise<void> {
  if (!deps.jobs || !(await deps.store.claim(id, 'progress-pending', PROGRESS_PENDING_MS))) return;
  try {
    await deps.jobs.notify({ requestId: id, kind: 'progress' });
  } catch (err) {
    await deps.store.release(id, 'progress-pending');
    throw err;
  }
}

/**
 * A batch that ended (done, or stopped) leaves its wallet's turn in the same script; the next
 * batch of that wallet, refused at START while it waited, is tried now rather than at the
 * reconciler's next round.
 */
export async function handOnTurn(deps: BatchRunDeps, approvalId: string): Promise<void> {
  const record = await deps.store.get(approvalId);
  if (record?.approvalState !== 'done') return;
  const wallet = (record.sealed.call.body as { wallet_id?: unknown }).wallet_id;
  if (typeof wallet !== 'string') return;
  const holder = await deps.store.batches.turnHolder(wallet);
  if (holder && holder !== approvalId) await continueBatch(deps, holder);
}

/** The first queued row's try (at resume and from the reconciler), unless a row is executing. */
export async function continueBatch(deps: BatchRunDeps, approvalId: string): Promise<void> {
  const record = await deps.store.get(approvalId);
  if (!record || !RUNNABLE_APPROVAL_STATES.has(record.approvalState) || record.counts.executing > 0) return;
  for (let offset = 0; offset < record.executionCount; offset += PAGE) {
    const page = await deps.store.executions.page(approvalId, offset, PAGE, record.executionCount);
    const first = page.find((e) => e.state === 'queued');
    if (first) return deps.jobs.enqueueTry(first.id, first.tries + 1);
  }
}

/** BATCH_PAUSE_AFTER_FAILURES and BATCH_HOLD_LIMIT, as the scripts need them. */
export interface BatchRunConfig {
  pauseAfterFailures: number;
  holdLimitMs: number;
  /** BATCH_RATE: all batch rows together, across processes (the start script admits them). */
  rate?: Rate | undefined;
}

/**
 * Cancels every unsent execution of an approval (stop, unfreeze-cancel, BATCH_HOLD_LIMIT): a
 * batch's rows each give their own velocity units back in the cancelling script, once, and a
 * single its whole reservation in that same script, which reads them from what the approval
 * stores (store/lua/includes/give-back.lua); a batch that is now done hands its wallet's turn on
 * at once. Returns how many were cancelled.
 */
export async function cancelUnsent(
  deps: { store: RequestStore; jobs: Pick<JobQueue, 'enqueueTry'>; log: Logger },
  approvalId: string,
  entry: Omit<HistoryEntry, 'at'>,
): Promise<number> {
  const batch = (await deps.store.shape(approvalId)) === 'batch';
  const n = await deps.store.executions.cancelQueued(approvalId, entry, 500);
  if (batch) await handOnTurn(deps, approvalId);
  return n;
}

/** What a row's final move does besides moving (its give-back, the failure run): app/execute/batch-row.ts. */
export function rowFinish(
  deps: { controls?: ControlStore | undefined; batch?: BatchRunConfig | undefined },
  rowCall: Pick<SealedRequest, 'call' | 'display' | 'availableUnits'>,
): BatchFinish {
  const subject = velocitySubject(rowCall);
  return {
    ...(subject && deps.controls
      ? {
          giveBack: {
            amounts: deps.controls.amountsKey(subject),
            units: subject.units,
            ledger: deps.controls.ledgerKey(subject),
          },
        }
      : {}),
    pauseAfter: deps.batch?.pauseAfterFailures ?? DEFAULT_PAUSE_AFTER_FAILURES,
  };
}

export const DEFAULT_PAUSE_AFTER_FAILURES = 10;
