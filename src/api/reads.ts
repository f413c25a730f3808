/**
 * GET /api/v1/requests/{id}, GET /api/v1/requests and POST /api/v1/requests/{id}/cancel (issue 21).
 * `requests:read` reads what keys of the same owner made; `requests:read:all` reads any request.
 * Cancelling goes through the cancel use case (app/decide.ts) as the key's owner, and only for
 * requests this key made.
 */
import { cancel } from '../app/decide.js';
import { type ApiKey, hasScope } from '../domain/api-key.js';
import { APPROVAL_ID, SINGLE_STATES } from '../domain/approval.js';
import type { RequestRecord } from '../domain/request.js';
import type { Answer } from './create.js';
import type { ApiDeps } from './deps.js';
import { presentExecution } from './present.js';
import { problem } from './problem.js';
import { decodeExecutionsCursor, EXECUTIONS_PAGE, executionPage, viewOf } from './request-view.js';
import { executionsQuery, listQuery } from './schemas.js';

const NOT_FOUND: Answer = {
  status: 404,
  body: problem(404, 'not_found', 'No request with this id is readable with this API key; check the id.').problem,
  keep: true,
};

const readable = (key: ApiKey, r: RequestRecord): boolean =>
  key.scopes.includes('requests:read:all') || r.frozen.display.viaApi?.owner === key.owner;

/** Executions each request of a list embeds (the store's first page); the rest by cursor. */
const LIST_EXECUTIONS = 20;

const view = (deps: ApiDeps, r: RequestRecord) => viewOf(deps, r, LIST_EXECUTIONS);

async function readableRecord(deps: ApiDeps, key: ApiKey, id: string): Promise<RequestRecord | undefined> {
  const r = APPROVAL_ID.test(id) ? await deps.store.get(id) : undefined;
  return r && readable(key, r) ? r : undefined;
}

/** GET /requests/{id}: an `R-…` or a batch `B-…`, with its first 1,000 executions. */
export async function readRequest(deps: ApiDeps, key: ApiKey, id: string): Promise<Answer> {
  const r = await readableRecord(deps, key, id);
  if (!r) return NOT_FOUND;
  return { status: 200, body: await viewOf(deps, r, EXECUTIONS_PAGE), keep: false };
}

const badQuery = (detail: string): Answer => ({
  status: 400,
  body: problem(400, 'invalid_field', detail).problem,
  keep: false,
});

/** GET /requests/{id}/executions?cursor=&limit=: a batch's rows beyond the first page. */
export async function listExecutions(
  deps: ApiDeps,
  key: ApiKey,
  id: string,
  query: Record<string, string>,
): Promise<Answer> {
  const r = await readableRecord(deps, key, id);
  if (!r) return NOT_FOUND;
  const parsed = executionsQuery.safeParse(query);
  if (!parsed.success)
    return badQuery('The query parameters are cursor (as executions_next_cursor gave it) and limit (1 to 1000).');
  const { cursor, limit } = parsed.data;
  const offset = cursor === undefined ? 0 : decodeExecutionsCursor(id, cursor);
  if (offset === undefined) return badQuery(`The cursor is not one this API gave for ${id}; pass it as it came.`);
  const page = await executionPage(deps, r, offset, limit ?? EXECUTIONS_PAGE);
  return {
    status: 200,
    body: {
      object: 'list',
      data: page.executions.map((e) => presentExecution(e, page.rows)),
      next_cursor: page.next,
    },
    keep: false,
  };
}

const encodeCursor = (at: number, id: string) => Buffer.from(`${at}:${id}`).toString('base64url');
function decodeCursor(text: string): { at: number; id: string } | undefined {
  const m = /^(\d+):([RB]-\d+)$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return m?.[1] && m[2] ? { at: Number(m[1]), id: m[2] } : undefined;
}

const PAGE = 20;
/** How many index entries one list call may look at when a state filter skips most of them. */
const SCAN_LIMIT = 1000;

export async function listRequests(deps: ApiDeps, key: ApiKey, query: Record<string, string>): Promise<Answer> {
  const parsed = listQuery.safeParse(query);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'query');
    return {
      status: 400,
      body: problem(
        400,
        'invalid_field',
        `The query parameter ${field} is not valid: use state (one of the request states), since (an RFC 3339 time), cursor and limit (1 to 100).`,
      ).problem,
      keep: false,
    };
  }
  const q = parsed.data;
  const before = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  if (q.cursor !== undefined && !before)
    return {
      status: 400,
      body: problem(400, 'invalid_field', 'The cursor is not one this API gave; pass next_cursor as it came.').problem,
      keep: false,
    };
  const limit = q.limit ?? PAGE;
  const owner = key.scopes.includes('requests:read:all') ? undefined : key.owner;
  const since = q.since === undefined ? 0 : Date.parse(q.since);
  const data: Awaited<ReturnType<typeof view>>[] = [];
  let cursor = before;
  let scanned = 0;
  let last: { at: number; id: string } | undefined;
  while (data.length < limit && scanned < SCAN_LIMIT) {
    const rows = await deps.keys.requestIds(owner, { since, before: cursor, limit: limit - data.length });
    if (rows.length === 0) {
      last = undefined;
      break;
    }
    scanned += rows.length;
    for (const row of rows) {
      last = row;
      const r = await deps.store.get(row.id);
      if (r && (!q.state || r.approvalState === q.state)) data.push(await view(deps, r));
    }
    cursor = last;
  }
  const more = last !== undefined && (await deps.keys.requestIds(owner, { since, before: last, limit: 1 })).length > 0;
  return {
    status: 200,
    body: { object: 'list', data, next_cursor: more && last ? encodeCursor(last.at, last.id) : null },
    keep: false,
  };
}

export async function cancelRequest(deps: ApiDeps, key: ApiKey, id: string): Promise<Answer> {
  const r = APPROVAL_ID.test(id) ? await deps.store.get(id) : undefined;
  if (!r) return NOT_FOUND;
  if (r.frozen.display.viaApi?.keyId !== key.id)
    return readable(key, r) && hasScope(key, 'requests:read')
      ? {
          status: 403,
          body: problem(403, 'not_cancellable', 'Only the API key that made a request may cancel it.').problem,
          keep: true,
        }
      : NOT_FOUND;
  const outcome = await cancel(deps, id, key.owner);
  if (outcome.kind === 'cancelled') {
    const after = await deps.store.get(id);
    return { status: 200, body: after ? await viewOf(deps, after) : undefined, keep: true };
  }
  if (outcome.kind === 'missing') return NOT_FOUND;
  // The view state's approval state (DESIGN's word), e.g. succeeded → done.
  const state = outcome.kind === 'late' && outcome.decided.state ? SINGLE_STATES[outcome.decided.state][0] : 'decided';
  return {
    status: 409,
    body: problem(409, 'not_cancellable', `${id} is ${state}; only a pending request can be cancelled.`).problem,
    keep: true,
  };
}
