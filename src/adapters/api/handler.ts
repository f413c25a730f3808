/**
 * The HTTP API adapter: one request handler for everything under /api/v1, mounted by
 * Rampart's own server (src/adapters/http/) — or, in tests, by a plain node:http server.
 * Order of checks: route, API key (401), scope (403), API_RATE (429), Idempotency-Key (400),
 * body (415/413/408/400), then the use case. Never a stack trace: anything unexpected is a 503
 * that says nothing was decided, with the error in the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiScope } from '../../domain/api-key.js';
import type { KeyActor } from '../../domain/api-rules.js';
import { authenticate } from './auth.js';
import { createBatch, recoverBatch } from './batches.js';
import { type Answer, createRequest, recoverCreated } from './create.js';
import type { ApiDeps } from './deps.js';
import { readJsonBody, sendJson, sendProblem } from './http-io.js';
import { fingerprint, idempotencyKeyProblem, idempotent } from './idempotent.js';
import { type ProblemAnswer, problem, retryAfter } from './problem.js';
import { cancelRequest, listExecutions, listRequests, readRequest } from './reads.js';

export const API_BASE = '/api/v1';

type Route =
  | { kind: 'openapi' }
  | { kind: 'create'; what: 'transfer' | 'offramp' | 'batch' }
  | { kind: 'read'; id: string }
  | { kind: 'executions'; id: string }
  | { kind: 'list' }
  | { kind: 'cancel'; id: string };

function route(method: string, path: string): Route | ProblemAnswer {
  const table: Array<[string, RegExp, (m: RegExpExecArray) => Route]> = [
    ['GET', /^\/openapi\.json$/, () => ({ kind: 'openapi' })],
    ['POST', /^\/transfers$/, () => ({ kind: 'create', what: 'transfer' })],
    ['POST', /^\/offramps$/, () => ({ kind: 'create', what: 'offramp' })],
    ['POST', /^\/batches$/, () => ({ kind: 'create', what: 'batch' })],
    ['GET', /^\/requests$/, () => ({ kind: 'list' })],
    ['GET', /^\/requests\/([^/]+)$/, (m) => ({ kind: 'read', id: m[1] ?? '' })],
    // A series is read as any request; this path answers only for series ids.
    ['GET', /^\/schedules\/(S-\d+)$/, (m) => ({ kind: 'read', id: m[1] ?? '' })],
    ['GET', /^\/requests\/([^/]+)\/executions$/, (m) => ({ kind: 'executions', id: m[1] ?? '' })],
    ['POST', /^\/requests\/([^/]+)\/cancel$/, (m) => ({ kind: 'cancel', id: m[1] ?? '' })],
  ];
  let pathKnown = false;
  for (const [verb, pattern, make] of table) {
    const m = pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (verb === method) return make(m);
  }
  return pathKnown
    ? problem(405, 'method_not_allowed', `${method} is not allowed here; see ${API_BASE}/openapi.json.`)
    : problem(404, 'not_found', `There is nothing at ${API_BASE}${path}; see ${API_BASE}/openapi.json.`);
}

const SCOPE: Record<Exclude<Route['kind'], 'openapi'>, ApiScope> = {
  create: 'requests:create',
  cancel: 'requests:create',
  read: 'requests:read',
  executions: 'requests:read',
  list: 'requests:read',
};

function send(res: ServerResponse, answer: Answer, replayed = false): void {
  const headers = { ...answer.headers, ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}) };
  const type = answer.status >= 400 ? 'application/problem+json' : 'application/json';
  sendJson(res, answer.status, answer.body, headers, type);
}

export function createApiHandler(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let document: Record<string, unknown> | undefined;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://rampart.invalid');
    const path = url.pathname.startsWith(API_BASE) ? url.pathname.slice(API_BASE.length) : url.pathname;
    const method = req.method ?? 'GET';
    try {
      const r = route(method, path);
      if ('problem' in r) return sendProblem(res, r);
      if (r.kind === 'openapi') {
        // zod-to-openapi is loaded for the first request of the document only.
        document ??= (await import('./openapi.js')).openApiDocument();
        return sendJson(res, 200, document);
      }
      const actor = await authenticate(deps, req);
      if ('problem' in actor) return sendProblem(res, actor);
      const admitted = await deps.app.apiKeys.admit(actor, SCOPE[r.kind]);
      if (!admitted.ok)
        return sendProblem(
          res,
          admitted.code === 'missing_scope'
            ? problem(403, admitted.code, admitted.message)
            : problem(429, admitted.code, admitted.message, { headers: retryAfter(admitted.retryAfterMs) }),
        );
      if (r.kind === 'read') return send(res, await readRequest(deps, actor, r.id));
      if (r.kind === 'executions')
        return send(res, await listExecutions(deps, actor, r.id, Object.fromEntries(url.searchParams)));
      if (r.kind === 'list') return send(res, await listRequests(deps, actor, Object.fromEntries(url.searchParams)));
      await post(deps, req, res, actor, r, path);
    } catch (err) {
      deps.log.error({ err, method, path }, 'the API failed unexpectedly');
      if (!res.headersSent)
        sendProblem(
          res,
          problem(
            503,
            'service_unavailable',
            'Rampart could not finish this call; nothing new was decided. Try again shortly.',
            {
              headers: retryAfter(2000),
            },
          ),
        );
    }
  };
}

async function post(
  deps: ApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  actor: KeyActor,
  r: Extract<Route, { kind: 'create' | 'cancel' }>,
  path: string,
): Promise<void> {
  const header = req.headers['idempotency-key'];
  const missing = idempotencyKeyProblem(header);
  if (missing || typeof header !== 'string')
    return sendProblem(res, missing ?? problem(400, 'missing_idempotency_key', ''));
  // A cancel needs no body; an empty one counts as {}.
  const empty =
    r.kind === 'cancel' && (req.headers['content-length'] ?? '0') === '0' && !req.headers['transfer-encoding'];
  const body = empty ? ({ ok: true, value: {} } as const) : await readJsonBody(req, deps.body);
  if (!body.ok) return sendProblem(res, body.answer, true);
  const outcome = await idempotent(deps, {
    keyId: actor.key.keyId,
    idempotencyKey: header,
    fingerprint: fingerprint('POST', path, body.value),
    run: (submission) => {
      if (r.kind === 'cancel') return cancelRequest(deps, actor, r.id);
      if (r.what === 'batch') return createBatch(deps, actor, body.value, submission);
      return createRequest(deps, actor, r.what, body.value, submission);
    },
    // The key's claim was made by this same route (the fingerprint holds the path).
    recover: (requestId) =>
      r.kind === 'create' && r.what === 'batch'
        ? recoverBatch(deps, actor, requestId)
        : recoverCreated(deps, actor, requestId),
  });
  send(res, outcome.answer, outcome.replayed);
}
