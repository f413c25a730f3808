/**
 * The moves that end a try, all through the execution's token: a final move (succeeded, failed,
 * unknown) with the shape's notices, or back to queued when the call provably never left.
 */
import { type ApprovalShape, isSingleExecution, parseExecutionId } from '../../domain/approval.js';
import type { RequestOutcome } from '../../domain/request.js';
import { unknownFinishKeys } from '../unknown-keys.js';
import type { ExecuteOneDeps, ExecuteResult } from './deps.js';
import type { Run } from './run.js';

export interface Finish {
  /** The final move; `also` runs beside its notices once it is recorded. True when recorded. */
  final(
    to: 'succeeded' | 'failed' | 'unknown',
    result: RequestOutcome,
    detail?: string,
    also?: () => Promise<void>,
  ): Promise<boolean>;
  /** Nothing left: back to queued and a new try with its own job id, or failed after the last try. */
  notSent(outcome: RequestOutcome, detail: string): Promise<ExecuteResult>;
}

const retryDelayMs = (tries: number) => 2_000 * 2 ** (tries - 1);

export function finishOf(run: Run): Finish {
  const { deps, executionId, started, shape } = run;
  const { store, log, jobs } = deps;
  const final: Finish['final'] = async (to, result, detail, also) => {
    // The approval as the start read it: the final move masks it without reading it again; a
    // batch's row reads its next row in the same script.
    const next = shape.next(run);
    const how = { ...shape.finishWith(run), approval: started.approval, ...(next ? { next } : {}) };
    const r = await store.executions.finish(executionId, started.token, to, result, detail, how);
    if (!r.ok) log.error({ executionId, to, state: r.from }, 'execute: could not record the outcome');
    await Promise.all([shape.afterFinal(run, to, r), r.ok ? also?.() : undefined]);
    return r.ok;
  };
  return {
    final,
    async notSent(outcome, detail) {
      if (started.tries >= run.maxTries) {
        await final('failed', outcome, 'never sent');
        return 'failed';
      }
      await store.executions.finish(executionId, started.token, 'queued', outcome, detail, shape.finishWith(run));
      await jobs.enqueueTry(executionId, started.tries + 1, retryDelayMs(started.tries));
      return 'retry';
    },
  };
}

/** A single request's own execution gets its outcome notices; a batch's rows, its card. */
export const notifyKind = (shape: ApprovalShape | undefined, executionId: string, to: string) =>
  isSingleExecution(shape, executionId) ? (to === 'unknown' || to === 'not-sent' ? to : 'outcome') : 'card';

/** Marks an `executing` execution `unknown` (a crash or stall left it there) and says so loudly. */
export async function markUnknown(
  deps: Pick<ExecuteOneDeps, 'store' | 'jobs' | 'log' | 'controls'>,
  executionId: string,
  why: string,
): Promise<boolean> {
  const how = await unknownFinishKeys(deps, executionId);
  const r = await deps.store.executions.finish(executionId, '', 'unknown', { message: why }, why, how);
  if (r.ok) {
    deps.log.error({ executionId, why }, 'execution outcome unknown');
    const approvalId = parseExecutionId(executionId)?.approvalId ?? executionId;
    await deps.jobs.notify({ requestId: approvalId, kind: notifyKind(r.shape, executionId, 'unknown') });
  }
  return r.ok;
}
