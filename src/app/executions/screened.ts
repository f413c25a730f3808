/**
 * After the start script cancelled an execution screening refused
 * (store/lua/includes/start-cancel.lua): the card and the hit notice. Nothing here can send
 * anything or move money: the execution is already cancelled and its velocity reservation given
 * back by that same script.
 */

import type { ExecuteOneDeps } from '../execute-one.js';

/**
 * The start script cancelled this execution (its destination is listed, or SCREENING=required
 * found no fresh list): nothing was sent, and the script gave back its velocity reservation and
 * paused its batch in the same step. The card and the hit notice follow.
 */
export async function afterScreened(
  deps: Pick<ExecuteOneDeps, 'jobs' | 'log'>,
  executionId: string,
  approvalId: string,
  why: string,
) {
  deps.log.warn({ executionId, why }, 'execute: screening cancelled the execution at its start; nothing sent');
  await deps.jobs.notify({ requestId: approvalId, kind: 'card' });
  await deps.jobs.notify({ requestId: approvalId, kind: 'screened' });
}
