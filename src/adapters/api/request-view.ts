/**
 * Presents what the app reads for a request: its history, a page of its real execution
 * records and, for a batch, its rows; and the executions cursor, which
 * names the request and the offset so a cursor of one request never pages another.
 */
import type { RequestRecord } from '../../domain/request.js';
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

/** Executions offset+1 … offset+limit, with a batch's rows and the cursor to the next page. */
export async function executionPage(
  deps: Pick<ApiDeps, 'app'>,
  r: RequestRecord,
  offset: number,
  limit: number,
): Promise<ExecutionPage> {
  return pageOf(r, await deps.app.reads.executions(r, offset, limit));
}

type ExecutionSlice = Awaited<ReturnType<ApiDeps['app']['reads']['executions']>>;

const pageOf = (r: RequestRecord, s: ExecutionSlice): ExecutionPage => ({
  executions: s.executions,
  rows: s.rows,
  next: s.end < s.total ? encodeExecutionsCursor(r.sealed.id, s.end) : null,
});

/** The request with its first `limit` executions (1,000 for one request; the store's first page in lists). */
export async function viewOf(
  deps: Pick<ApiDeps, 'app'>,
  r: RequestRecord,
  limit = EXECUTIONS_PAGE,
): Promise<RequestView> {
  const { history, slice } = await deps.app.reads.withHistory(r, limit);
  return presentRequest(r, history, pageOf(r, slice));
}
