/**
 * GET /api/v1/requests/{id}, GET /api/v1/requests and POST /api/v1/requests/{id}/cancel.
 * `requests:read` reads what keys of the same owner made; `requests:read:all` reads any request.
 * Which requests a key reads and cancels is the app's (reads.withKey, approvals.cancelWithKey);
 * this file parses the query and phrases the answer.
 */

import type { KeyActor } from '../../domain/api-rules.js';
import { SINGLE_STATES } from '../../domain/approval.js';
import type { RequestRecord } from '../../domain/request.js';
import { waitingCancelText } from '../../presenters/waiting-cancel.js';
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

/** Executions each request of a list embeds (the store's first page); the rest by cursor. */
const LIST_EXECUTIONS = 20;

const view = (deps: ApiDeps, r: RequestRecord) => viewOf(deps, r, LIST_EXECUTIONS);

const readableRecord = (deps: ApiDeps, actor: KeyActor, id: string): Promise<RequestRecord | undefined> =>
  deps.app.reads.withKey(actor, id);

/** GET /requests/{id}: an `R-…` or a batch `B-…`, with its first 1,000 executions. */
export async function readRequest(deps: ApiDeps, actor: KeyActor, id: string): Promise<Answer> {
  const r = await readableRecord(deps, actor, id);
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
  actor: KeyActor,
  id: string,
  query: Record<string, string>,
): Promise<Answer> {
  const r = await readableRecord(deps, actor, id);
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

export async function listRequests(deps: ApiDeps, actor: KeyActor, query: Record<string, string>): Promise<Answer> {
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
  const since = q.since === undefined ? 0 : Date.parse(q.since);
  const page = await deps.app.reads.listWithKey(actor, { since, before, limit: q.limit ?? PAGE, state: q.state });
  const data = [];
  for (const r of page.records) data.push(await view(deps, r));
  return {
    status: 200,
    body: { object: 'list', data, next_cursor: page.next ? encodeCursor(page.next.at, page.next.id) : null },
    keep: false,
  };
}

export async function cancelRequest(deps: ApiDeps, actor: KeyActor, id: string): Promise<Answer> {
  const outcome = await deps.app.approvals.cancelWithKey(actor, id);
  switch (outcome.kind) {
    case 'not_found':
      return NOT_FOUND;
    case 'not_cancellable':
      return { status: 403, body: problem(403, 'not_cancellable', outcome.message).problem, keep: true };
    case 'cancelled':
      return { status: 200, body: outcome.record ? await viewOf(deps, outcome.record) : undefined, keep: true };
    case 'refused':
      // A start won the race, or nothing waits: the request's state decides, not this key.
      return { status: 409, body: problem(409, outcome.code, waitingCancelText(outcome.code, id)).problem, keep: true };
    default: {
      // The view state's approval state (DESIGN's word), e.g. succeeded → done.
      const state =
        outcome.kind === 'late' && outcome.decided.state ? SINGLE_STATES[outcome.decided.state][0] : 'decided';
      return {
        status: 409,
        body: problem(409, 'not_cancellable', `${id} is ${state}; only a pending request can be cancelled.`).problem,
        keep: true,
      };
    }
  }
}
