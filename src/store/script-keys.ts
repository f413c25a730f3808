/**
 * The KEYS of the execution scripts, built from names in one place each, in the order their
 * headers list them (store/lua/start.lua, finish.lua, cancel-queued.lua, propose.lua): no call
 * site counts positions. Every key is under the store's hash-tagged prefix, so a key passed
 * where a script needs none ("none" below) still lands in the approval's slot on a Cluster.
 */
import { executionId } from '../domain/approval.js';
import type { StoreKeys } from './store-keys.js';

/** Keys of one execution's scripts: approval, history, execution, ready, executing set. */
function base(keys: StoreKeys, approvalId: string, execId: string): string[] {
  return [keys.approval(approvalId), keys.history(approvalId), keys.execution(execId), keys.ready, keys.executing];
}

const rowOf = (execId: string) => Number(execId.slice(execId.lastIndexOf('.') + 1));

/**
 * start.lua: the execution's own keys, the freeze flag, the views, the previous row (the
 * execution itself for row 1), the wallets' turns (the script reads them for a batch only) and
 * execution 1 (to migrate an older record), the screening list, its meta, the open set and the
 * batch's given-back set (a screened row's velocity give-back).
 */
export function startKeys(keys: StoreKeys, approvalId: string, execId: string): string[] {
  const n = rowOf(execId);
  const previous = n > 1 ? keys.execution(executionId(approvalId, n - 1)) : keys.execution(execId);
  return [
    ...base(keys, approvalId, execId),
    keys.freeze,
    ...keys.views(),
    previous,
    keys.turns,
    keys.execution(executionId(approvalId, 1)),
    keys.screeningList,
    keys.screeningMeta,
    keys.open,
    keys.batchGiven(approvalId),
    keys.batchRate,
  ];
}

/** The velocity keys a final move may touch: a single's reservation or a batch row's. */
export interface FinishVelocity {
  /** The ledger (sorted set); absent: no re-stamp, no release. */
  ledger?: string | undefined;
  /** The ledger's amounts (hash). */
  amounts?: string | undefined;
}

/** finish.lua's named keys beyond the execution's own (store/lua/finish.lua header). */
export interface FinishNames {
  velocity?: FinishVelocity;
  /** A batch row's next execution id: its state and tries come back with the move. */
  next?: string;
}

export function finishKeys(keys: StoreKeys, approvalId: string, execId: string, names: FinishNames): string[] {
  const given = keys.batchGiven(approvalId);
  return [
    ...base(keys, approvalId, execId),
    keys.open,
    ...keys.views(),
    names.velocity?.ledger ?? given,
    names.velocity?.amounts ?? given,
    given,
    keys.turns,
    names.next ? keys.execution(names.next) : keys.execution(execId),
    keys.execution(executionId(approvalId, 1)),
  ];
}

/**
 * cancel-queued.lua: execution 1's keys, the open set, the views, the wallets' turns, the
 * given-back set, then the page's executions (the velocity ledger's keys are built in the script
 * from what the approval stores: includes/give-back.lua).
 */
export function cancelQueuedKeys(keys: StoreKeys, approvalId: string, page: readonly string[]): string[] {
  return [
    ...base(keys, approvalId, executionId(approvalId, 1)),
    keys.open,
    ...keys.views(),
    keys.turns,
    keys.batchGiven(approvalId),
    ...page.map(keys.execution),
  ];
}

/** propose.lua: the execution's own keys and execution 1 (to migrate an older record). */
export function proposeKeys(keys: StoreKeys, approvalId: string, execId: string): string[] {
  return [...base(keys, approvalId, execId), keys.execution(executionId(approvalId, 1))];
}

/**
 * window-cancel.lua: the approval's keys, the wallets' turns and every execution (the velocity
 * ledger's keys are built in the script from what the approval stores: includes/give-back.lua).
 */
export function windowCancelKeys(keys: StoreKeys, approvalId: string, executions: number): string[] {
  return [
    ...base(keys, approvalId, executionId(approvalId, 1)),
    keys.open,
    ...keys.views(),
    keys.turns,
    ...Array.from({ length: executions }, (_, i) => keys.execution(executionId(approvalId, i + 1))),
  ];
}
