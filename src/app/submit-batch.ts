/**
 * submitBatch (issue 20): where a checked batch file becomes one approval with one execution
 * per row. The approval/execution model it needs (issue 18 §1) is being built; until it lands
 * this answers `unavailable` and the edge says so honestly. Wiring it is this one function.
 */
import type { CheckedBatch } from './check-batch.js';
import type { AppDeps } from './deps.js';

export interface BatchSubmission {
  checked: CheckedBatch;
  requester: string;
  reason: string;
  /** Channel /batch was typed in: the requester's confirmation goes there. */
  origin: string | undefined;
  /** The modal's view id: one submitted form makes at most one batch. */
  submission: string;
  fileName: string;
}

export type SubmitBatchOutcome = { kind: 'unavailable' };

export async function submitBatch(_deps: Partial<AppDeps>, _batch: BatchSubmission): Promise<SubmitBatchOutcome> {
  return { kind: 'unavailable' };
}
