/**
 * The start: the compare-and-set that alone moves an execution queued → executing and returns
 * what to run (no separate read). Every condition on a start (the freeze, the approval's state, its
 * runAt, a batch's order, turn and hold limit) is decided inside that script; this file only reads its
 * answer. A batch's funding check runs when the script asks for it, before starting again.
 */
import { isWakeJob } from '../../domain/approval.js';
import { isScreeningCode } from '../../domain/rules/screening.js';
import type { ExecutionStart } from '../../store/executions.js';
import { checkFunding } from '../batch-funding.js';
import { afterScreened } from '../executions/screened.js';
import type { ExecuteOneDeps, ExecuteOneOptions, ExecuteResult } from './deps.js';
import { markUnknown, notifyKind } from './finish.js';
import type { Started } from './run.js';

export interface StartOf {
  executionId: string;
  approvalId: string;
  jobId: string;
}

/** The won start, or what this try answers when the script refused it. */
export async function start(
  deps: ExecuteOneDeps,
  at: StartOf,
  options: Pick<ExecuteOneOptions, 'waited'>,
): Promise<Started | ExecuteResult> {
  const { executionId, approvalId, jobId } = at;
  // BATCH_HOLD_LIMIT and BATCH_RATE: the start script applies them to a batch's rows only.
  const settings = { holdLimitMs: deps.batch?.holdLimitMs, screening: deps.screening, batchRate: deps.batch?.rate };
  const cas = () => deps.store.executions.start(executionId, deps.workerName, jobId, settings);
  await deps.beforeStart?.(executionId);
  let started = await cas();
  // The batch just took its wallet's turn (or was resumed): check its funding first.
  if (started.token === undefined && started.approval === 'funding') {
    const funding = await checkFunding(deps, approvalId);
    if (funding === 'unchecked') return 'wait';
    if (funding === 'paused') await deps.jobs.notify({ requestId: approvalId, kind: 'card' });
    else started = await cas();
  }
  return started.token === undefined ? notStarted(deps, at, started, options) : started;
}

async function notStarted(
  deps: ExecuteOneDeps,
  { executionId, approvalId, jobId }: StartOf,
  started: Exclude<ExecutionStart, Started>,
  options: Pick<ExecuteOneOptions, 'waited'>,
): Promise<ExecuteResult> {
  if (started.held) return 'held';
  // The start script cancelled it in its own step (screening refused its destination, or its
  // address-book entry or new beneficiary no longer lets it start): nothing was sent.
  const cancel = started.cancelled;
  if (cancel) {
    if (isScreeningCode(cancel.code)) {
      await afterScreened(deps, executionId, approvalId, cancel.why);
      return 'skipped';
    }
    // The code tells which check cancelled it: an address-book entry's or a new beneficiary's.
    deps.log.warn(
      { executionId, code: cancel.code, why: cancel.why },
      'execute: cancelled by its start check; nothing called',
    );
    await deps.jobs.notify({ requestId: approvalId, kind: notifyKind(cancel.shape, executionId, 'cancelled') });
    return 'cancelled';
  }
  // Its address-book entry is still cooling off: the job waits that long (Redis time).
  if (started.approval === 'cooling' && started.waitMs !== undefined) {
    if (options.waited) options.waited.ms = started.waitMs;
    return 'waiting';
  }
  // Before its runAt (a cancel window or a set time), or a batch's row before BATCH_RATE's next
  // slot: nothing changed; the caller waits the time left.
  if (started.approval === 'not-yet' || started.approval === 'rate') {
    if (options.waited) options.waited.ms = started.waitMs ?? 1;
    return 'not-yet';
  }
  // A wake is expected to find nothing to start at times (a second wake, an earlier version's
  // wake-up job before the quorum or on a decided card, a request that is gone); any other job
  // that may not start is worth a look.
  const woken = isWakeJob(jobId);
  if (started.from === undefined) {
    deps.log[woken ? 'debug' : 'error']({ executionId }, 'execute: execution missing; nothing called');
    return 'skipped';
  }
  if (started.from === 'executing') {
    // Another job that is still running holds it: not ours to judge.
    if (started.job && started.job !== jobId && (await deps.jobs.isRunning(started.job))) return 'skipped';
    // Someone began this call and never finished: it may have reached the service.
    await markUnknown(
      deps,
      executionId,
      'a worker stopped while this request was executing; it may or may not have reached the service',
    );
    return 'unknown';
  }
  deps.log[woken ? 'debug' : 'warn'](
    { executionId, state: started.from, approval: started.approval },
    'execute: may not start; nothing called',
  );
  return 'skipped';
}
