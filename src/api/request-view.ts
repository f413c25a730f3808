/**
 * Reads what presenting a request needs (issue 21): its history, a page of its real execution
 * records (store.executions.page) and, for a batch, its rows; and the executions cursor, which
 * names the request and the offset so a cursor of one request never pages another.
 */
import type { RequestRecord } from '../domain/request.js';
import type { ApiDeps } from './deps.js';
import { type ExecutionPage, presentRequest } from './present.js';
import type { RequestView } from './schemas.js';

/** Executions a single GET /requests/{id} embeds, and the most one executions page holds. */
export const EXECUTIONS_PAGE = 1000;

export const encodeExecutionsCursor = (id: string, offset: number): string =>
  Buffer.from(`${id}@${offset}`).toString('base64url');

export function decodeExecutionsCursor(id: string, text: string): number | undefined {
  const m = /^([RB]-\d+)@(\d+)$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return m?.[1] === id && m[2] ? Number(m[2]) : undefined;
}

const rowsOf = (deps: ApiDeps, r: RequestRecord) =>
  r.frozen.display.batch ? deps.store.batches.rows(r.frozen.id) : Promise.resolve(undefined);

/**
 * Executions offset+1 … offset+limit. `r.executions` already holds the first page the store
 * read with the record (all of a single request); only a page beyond it is read again.
 */
export async function executionPage(
  deps: ApiDeps,
  r: RequestRecord,
  offset: number,
  limit: number,
): Promise<ExecutionPage> {
  const id = r.frozen.id;
  const total = r.executionCount;
  const held = offset === 0 && (r.executions.length >= Math.min(limit, total) || total <= 1);
  const [executions, rows] = await Promise.all([
    held ? Promise.resolve(r.executions.slice(0, limit)) : deps.store.executions.page(id, offset, limit, total),
    rowsOf(deps, r),
  ]);
  const end = offset + executions.length;
  return { executions, rows, next: end < total ? encodeExecutionsCursor(id, end) : null };
}

/** The request with its first `limit` executions (1,000 for one request; the store's first page in lists). */
export async function viewOf(deps: ApiDeps, r: RequestRecord, limit = EXECUTIONS_PAGE): Promise<RequestView> {
  const [history, page] = await Promise.all([deps.store.history(r.frozen.id), executionPage(deps, r, 0, limit)]);
  return presentRequest(r, history, page);
}
