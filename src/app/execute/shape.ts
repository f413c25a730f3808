/**
 * The differences between a single request's execution and a batch's row, and only those: the
 * pipeline (app/execute-one.ts) is the same for both.
 */

import type { ApprovalShape, ExecutionState } from '../../domain/approval.js';
import type { ExecutionTransition, FinishOptions } from '../../store/executions.js';
import { batchRowShape } from './batch-row.js';
import type { ExecuteResult } from './deps.js';
import type { Finish } from './finish.js';
import type { Run } from './run.js';
import { singleShape } from './single.js';

export interface RunShape {
  /** What the move that ends a try does besides, in the same script. */
  finishWith(run: Run): Pick<FinishOptions, 'release' | 'batch'>;
  /** The execution the final move reads in the same script (a row's next row). */
  next(run: Run): string | undefined;
  /** Queues a card refresh when this execution's card changes as it starts. */
  refreshCard(run: Run): void;
  /** Shows "executing" while the service call is on its way; the answer stops it as it settles. */
  showExecuting(run: Run): () => void;
  /** The notices after a final move, recorded or not. */
  afterFinal(run: Run, to: ExecutionState, moved: ExecutionTransition): Promise<void>;
  /** No Redis replica acknowledged the start: nothing is sent. */
  notDurable(run: Run, finish: Finish): Promise<ExecuteResult>;
}

/** The approval's stored shape, as the start script read it, decides. */
export const runShapeOf = (shape: ApprovalShape): RunShape => (shape === 'batch' ? batchRowShape : singleShape);
