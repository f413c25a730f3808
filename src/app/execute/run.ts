/** One started execution as the steps after the start see it. */
import type { ExecutionStart } from '../../store/executions.js';
import type { ExecuteOneDeps } from './deps.js';
import type { RunShape } from './shape.js';

/** A start that won the compare-and-set: its token, the sealed call and what the script read. */
export type Started = Extract<ExecutionStart, { token: string }>;

export interface Run {
  deps: ExecuteOneDeps;
  executionId: string;
  approvalId: string;
  started: Started;
  /** A single request, or a batch's row: the only differences between the two. */
  shape: RunShape;
  /** Tries before a never-sent call counts as failed. */
  maxTries: number;
}

/** Queues the approval's card refresh without waiting: it never holds up the call. */
export function queueCardRefresh({ deps, executionId, approvalId }: Run): void {
  void deps.jobs
    .notify({ requestId: approvalId, kind: 'card' })
    .catch((err: unknown) => deps.log.warn({ err, executionId }, 'could not queue a card refresh'));
}
