/**
 * What an API key may read: one request (an `R-…` or a batch `B-…`) with its history, a page of
 * its execution records and a batch's rows, and the list of requests made with keys. Which
 * requests a key reads is decided in domain/api-rules.ts (readableBy, listOwner).
 */
import { type KeyActor, listOwner, readableBy } from '../../domain/api-rules.js';
import { APPROVAL_ID, type ApprovalState } from '../../domain/approval.js';
import type { BatchRowRecord } from '../../domain/batch-approval.js';
import type { ExecutionRecord, HistoryEntry, RequestRecord } from '../../domain/request.js';
import { isBatchRecord } from '../../domain/request.js';
import type { ApiKeyStore } from '../../store/api-keys.js';
import type { RequestStore } from '../../store/requests.js';

export interface KeyReadDeps {
  store: Pick<RequestStore, 'get' | 'history' | 'executions' | 'batches'>;
  apiKeys: Pick<ApiKeyStore, 'requestIds'>;
}

/** The request if this key may read it; otherwise as if it did not exist. */
export async function readWithKey(deps: KeyReadDeps, actor: KeyActor, id: string): Promise<RequestRecord | undefined> {
  const key = actor.apiKey;
  const r = APPROVAL_ID.test(id) ? await deps.store.get(id) : undefined;
  return r && readableBy(key, r) ? r : undefined;
}

export interface ExecutionSlice {
  executions: ExecutionRecord[];
  /** A batch's rows in order: execution k pays rows[k-1]. */
  rows: BatchRowRecord[] | undefined;
  /** The offset after the last execution given; less than `total` when more follow. */
  end: number;
  total: number;
}

/**
 * Executions offset+1 … offset+limit. `r.executions` already holds the first page the store
 * read with the record (all of a single request); only a page beyond it is read again.
 */
export async function executionSlice(
  deps: KeyReadDeps,
  r: RequestRecord,
  offset: number,
  limit: number,
): Promise<ExecutionSlice> {
  const id = r.sealed.id;
  const total = r.executionCount;
  const held = offset === 0 && (r.executions.length >= Math.min(limit, total) || total <= 1);
  const [executions, rows] = await Promise.all([
    held ? Promise.resolve(r.executions.slice(0, limit)) : deps.store.executions.page(id, offset, limit, total),
    isBatchRecord(r) ? deps.store.batches.rows(id) : Promise.resolve(undefined),
  ]);
  return { executions, rows, end: offset + executions.length, total };
}

/** The request's history and its first `limit` executions. */
export async function requestWithHistory(
  deps: KeyReadDeps,
  r: RequestRecord,
  limit: number,
): Promise<{ history: HistoryEntry[]; slice: ExecutionSlice }> {
  const [history, slice] = await Promise.all([deps.store.history(r.sealed.id), executionSlice(deps, r, 0, limit)]);
  return { history, slice };
}

export interface KeyListQuery {
  since: number;
  before: { at: number; id: string } | undefined;
  limit: number;
  state: ApprovalState | undefined;
}

/** How many index entries one list call may look at when a state filter skips most of them. */
const SCAN_LIMIT = 1000;

/** Requests made with the owner's keys (or any key's, with requests:read:all), newest first. */
export async function listWithKey(
  deps: KeyReadDeps,
  actor: KeyActor,
  q: KeyListQuery,
): Promise<{ records: RequestRecord[]; next: { at: number; id: string } | undefined }> {
  const key = actor.apiKey;
  const owner = listOwner(key);
  const records: RequestRecord[] = [];
  let cursor = q.before;
  let scanned = 0;
  let last: { at: number; id: string } | undefined;
  while (records.length < q.limit && scanned < SCAN_LIMIT) {
    const rows = await deps.apiKeys.requestIds(owner, {
      since: q.since,
      before: cursor,
      limit: q.limit - records.length,
    });
    if (rows.length === 0) {
      last = undefined;
      break;
    }
    scanned += rows.length;
    for (const row of rows) {
      last = row;
      const r = await deps.store.get(row.id);
      if (r && (!q.state || r.approvalState === q.state)) records.push(r);
    }
    cursor = last;
  }
  const more =
    last !== undefined && (await deps.apiKeys.requestIds(owner, { since: q.since, before: last, limit: 1 })).length > 0;
  return { records, next: more ? last : undefined };
}
