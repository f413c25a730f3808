/**
 * One try of one execution as a worker runs it (app/execute-one.ts, which does the work at most
 * once), and what its job does next. BATCH_RATE's turn is decided inside the start script, as
 * every other start condition is: nothing is read before the start.
 */
import { parseExecutionId } from '../../domain/approval.js';
import { EXECUTE_TRIES, type ExecuteOneDeps, type ExecuteResult, executeOne, markUnknown } from '../execute-one.js';
import type { JobQueue } from '../ports.js';
import type { JobOutcome } from '../worker-outcome.js';

export interface RunExecutionDeps extends ExecuteOneDeps {
  jobs: JobQueue;
}

export async function runExecution(
  deps: RunExecutionDeps,
  executionId: string,
  jobId: string,
): Promise<JobOutcome<ExecuteResult>> {
  const waited = { ms: 0 };
  const result = await executeOne(deps, executionId, { jobId, maxTries: EXECUTE_TRIES, waited });
  // Waiting for its address-book entry's cooling-off: delayed until then (Redis time), not a try.
  if (result === 'waiting') return { status: 'wait', ms: Math.max(waited.ms, 1) };
  // Before its runAt or BATCH_RATE's next slot (Redis time): back to the delayed set until then,
  // never completed, no try used. A batch row waiting for its slot has not started (no token).
  if (result === 'not-yet') return { status: 'wait', ms: Math.max(waited.ms, 1) };
  // A batch row that ended (succeeded or failed) queued the next row's try itself, from what its
  // finish script read (app/batch-run.ts afterRow). Held by the freeze, or a batch whose balance
  // could not be read for its funding check: wait without failing or using an attempt; an
  // approved release promotes it.
  return result === 'held' || result === 'wait' ? { status: 'recheck' } : { status: 'done', result };
}

/**
 * A try's job failed for good or stalled, or a run with no job of its own (a wake's) threw,
 * without our code finishing: an execution it left `executing` may have reached the service, so
 * it becomes `unknown`. Only one this job or run started: another job or a wake's run may hold the
 * same execution (a wake and the quorum's look both tried it), and this one's end says nothing
 * about that one. A job may still run elsewhere (BullMQ's lock); a run that `ended` is over.
 */
export async function settleStalled(
  deps: Pick<ExecuteOneDeps, 'store' | 'jobs' | 'log' | 'controls'>,
  executionId: string,
  jobId: string,
  ended = false,
): Promise<boolean> {
  const execution = await deps.store.execution(executionId);
  const approvalId = parseExecutionId(executionId)?.approvalId ?? executionId;
  const state = execution?.state ?? (await deps.store.get(approvalId))?.executions[0]?.state;
  if (state !== 'executing' || (execution?.job !== undefined && execution.job !== jobId)) return false;
  if (!ended && (await deps.jobs.isRunning(jobId))) return false;
  return markUnknown(
    deps,
    executionId,
    ended
      ? 'the worker running it failed before the service answered; it may or may not have gone through'
      : 'the worker running it stopped before the service answered; it may or may not have gone through',
  );
}

/**
 * A run from the wake list that could not start now (its runAt, the freeze, a busy wallet): it
 * has no job of its own to wait in, so its try becomes one, delayed `delayMs` (the id a freeze's
 * release promotes and the quorum's look would add, so neither adds a second).
 */
export async function queueTry(
  deps: Pick<RunExecutionDeps, 'store' | 'jobs'>,
  executionId: string,
  delayMs: number,
): Promise<void> {
  const execution = await deps.store.execution(executionId);
  if (execution?.state === 'queued') await deps.jobs.enqueueTry(executionId, execution.tries + 1, delayMs);
}
