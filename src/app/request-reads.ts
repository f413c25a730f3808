/**
 * The requests Rampart keeps, as `rampart requests`, `requests show` and `batch
 * status` read them — through the app, not the store.
 */

import type { ViewState } from '../domain/approval.js';
import type { HistoryEntry, RequestRecord } from '../domain/request.js';
import { batchRowsWithExecutions } from '../store/batch-row-pages.js';
import type { RequestStore } from '../store/requests.js';
import type { BatchRowOutcome } from './notifier.js';

export interface RequestReadDeps {
  store: Pick<RequestStore, 'recentIds' | 'idsInState' | 'get' | 'history'>;
}

/** Newest first; with a state, newest into that state first (its own index: nothing older is missed). */
export async function listRequests(deps: RequestReadDeps, limit: number, state?: ViewState): Promise<RequestRecord[]> {
  const ids = state === undefined ? await deps.store.recentIds(limit) : await deps.store.idsInState(state, limit);
  const records = await Promise.all(ids.map((id) => deps.store.get(id)));
  return records.filter((r): r is RequestRecord => r !== undefined);
}

export const readRequest = (deps: RequestReadDeps, id: string): Promise<RequestRecord | undefined> =>
  deps.store.get(id);

export const requestHistory = (deps: RequestReadDeps, id: string): Promise<HistoryEntry[]> => deps.store.history(id);

/**
 * Every row of a batch with its execution's state and outcome, in row order. The
 * batch's thread (app/notices/batch-thread.ts) and the CLI read the same.
 */
export async function batchRowOutcomes(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<BatchRowOutcome[]> {
  return (await batchRowsWithExecutions(store, record)).flatMap(({ row, execution: e }) =>
    e ? [{ ...row, executionId: e.id, state: e.state, outcome: e.outcome }] : [],
  );
}
