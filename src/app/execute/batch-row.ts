/**
 * A batch's row: its give-back, failure run and pause happen inside its final move, which also
 * reads the next row; its batch's card changes with the batch's state, not per row.
 */
import { parseExecutionId } from '../../domain/approval.js';
import { afterRow, rowFinish } from '../batch-run.js';
import { queueCardRefresh } from './run.js';
import type { RunShape } from './shape.js';

export const batchRowShape: RunShape = {
  finishWith: ({ deps, started }) => ({ batch: rowFinish(deps, started.sealed) }),
  next({ executionId, approvalId }) {
    const n = parseExecutionId(executionId)?.n;
    return n === undefined ? undefined : `${approvalId}.${n + 1}`;
  },
  // Only the row that began the batch redraws its card (progress goes to the thread at the row's end).
  refreshCard(run) {
    if (run.started.began) queueCardRefresh(run);
  },
  // The batch shows running at once, after the call's own ticks (undici writes on a kept-alive
  // connection within them), so the refresh never shares the time before the first byte.
  showExecuting(run) {
    setImmediate(() => batchRowShape.refreshCard(run));
    return () => {};
  },
  afterFinal: (run, to, moved) =>
    moved.ok
      ? afterRow(run.deps, run.approvalId, to, moved)
      : run.deps.jobs.notify({ requestId: run.approvalId, kind: 'card' }),
  // The row goes back to queued (never sent) AND its batch pauses, in one move.
  async notDurable(run) {
    const { deps, executionId, approvalId, started } = run;
    await deps.store.executions.finish(
      executionId,
      started.token,
      'queued',
      { message: 'no Redis replica acknowledged the start in time, so nothing was sent' },
      'not sent: Redis replica did not acknowledge',
      {
        batch: {
          ...rowFinish(deps, started.sealed),
          pauseWhy: 'no Redis replica acknowledged a row’s start, so it was not sent; check Redis, then resume or stop',
        },
      },
    );
    await deps.jobs.notify({ requestId: approvalId, kind: 'card' });
    return 'skipped';
  },
};
