/**
 * Runs one execution of an approval against the service, at most once (DESIGN invariant 3), as
 * a pipeline: start → guards → call → finish.
 *
 * - start (execute/start.ts): the compare-and-set queued → executing, the only place an execution
 *   may start; every condition on it is inside that script.
 * - guards (execute/guards.ts): durability (WAIT), the seal check, the old -1 refusal — nothing
 *   else stands between the start and the call.
 * - call (execute/call.ts): the sealed call, never anything else; tried again only when it
 *   provably never left (a new try, a fresh job id); anything ambiguous ends in `unknown`.
 * - finish (execute/finish.ts): the one move that ends the try, through the start's token.
 *
 * A single request and a batch's row differ only in their shape, as the start script read it
 * (execute/single.ts, execute/batch-row.ts).
 */
import { parseExecutionId } from '../domain/approval.js';
import { call } from './execute/call.js';
import { EXECUTE_TRIES, type ExecuteOneDeps, type ExecuteOneOptions, type ExecuteResult } from './execute/deps.js';
import { finishOf } from './execute/finish.js';
import { guard } from './execute/guards.js';
import { runShapeOf } from './execute/shape.js';
import { start } from './execute/start.js';

export { EXECUTE_TRIES, type ExecuteOneDeps, type ExecuteOneOptions, type ExecuteResult } from './execute/deps.js';
export { markUnknown } from './execute/finish.js';
export { EXECUTING_CARD_AFTER_MS } from './execute/single.js';

export async function executeOne(
  deps: ExecuteOneDeps,
  executionId: string,
  options: ExecuteOneOptions = {},
): Promise<ExecuteResult> {
  const approvalId = parseExecutionId(executionId)?.approvalId ?? executionId;
  const started = await start(deps, { executionId, approvalId, jobId: options.jobId ?? '' }, options);
  if (typeof started === 'string') return started;
  const shape = runShapeOf(started.shape);
  const run = { deps, executionId, approvalId, started, shape, maxTries: options.maxTries ?? EXECUTE_TRIES };
  const finish = finishOf(run);
  return (await guard(run, finish)) ?? call(run, finish);
}
