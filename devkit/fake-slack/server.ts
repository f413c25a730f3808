/** Routes HTTP requests: `/api/<method>` to the Web API handlers, `/response/<id>` to response URLs. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs, readBody, sendJson, tokenOf } from './http-io.js';
import type { CallRecorder } from './recorder.js';
import type { ResponseUrls } from './response-urls.js';
import type { JsonObject } from './types.js';
import { type ApiResult, fail, type MethodHandler, type WebApiEnv } from './web-api-env.js';

/** Calls to answer with HTTP 429, per method: they are recorded but take no effect. */
export class RateLimits {
  #pending = new Map<string, { remaining: number; retryAfterSeconds: number }>();

  limitNext(method: string, count: number, retryAfterSeconds: number): void {
    this.#pending.set(method, { remaining: count, retryAfterSeconds });
  }

  /** The Retry-After seconds when this call is to be refused. */
  take(method: string): number | undefined {
    const pending = this.#pending.get(method);
    if (!pending || pending.remaining <= 0) return undefined;
    pending.remaining -= 1;
    return pending.retryAfterSeconds;
  }

  reset(): void {
    this.#pending.clear();
  }
}

export interface ServerDeps {
  env: WebApiEnv;
  recorder: CallRecorder;
  responseUrls: ResponseUrls;
  rateLimits: RateLimits;
  methods: Readonly<Record<string, MethodHandler>>;
  /** Socket Mode's `apps.connections.open`, authorised by the app-level token instead of the bot's. */
  socketMode?: { appToken: string; open(): ApiResult };
  /** Routes outside the Web API (file uploads and downloads); true when one answered. */
  routes?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

const API_PREFIX = '/api/';
const RESPONSE_PREFIX = '/response/';

function withoutToken(args: JsonObject): JsonObject {
  const { token: _token, ...rest } = args;
  return rest;
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  if (deps.routes && (await deps.routes(req, res))) return;
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const raw = await readBody(req);
  const isApi = url.pathname.startsWith(API_PREFIX);
  if (!isApi && !url.pathname.startsWith(RESPONSE_PREFIX)) {
    sendJson(res, 404, fail('not_found'));
    return;
  }
  const method = isApi ? url.pathname.slice(API_PREFIX.length) : 'response_url';
  const parsed = parseArgs(req.headers['content-type'], raw, url.searchParams);
  const args = parsed.ok ? parsed.args : {};
  const at = deps.env.settings.clock();
  const answer = (status: number, response: ApiResult, headers: Record<string, string> = {}): void => {
    deps.recorder.record({ method, args: withoutToken(args), at, status, response });
    sendJson(res, status, response, headers);
  };

  const retryAfter = deps.rateLimits.take(method);
  if (retryAfter !== undefined) return answer(429, fail('ratelimited'), { 'retry-after': String(retryAfter) });
  if (!parsed.ok) return answer(200, fail(parsed.error));
  if (!isApi) {
    const { status, result } = deps.responseUrls.post(url.pathname.slice(RESPONSE_PREFIX.length), args, deps.env);
    return answer(status, result);
  }
  const token = tokenOf(req, args);
  if (token === undefined || token === '') return answer(200, fail('not_authed'));
  if (method === 'apps.connections.open') {
    if (!deps.socketMode || token !== deps.socketMode.appToken) return answer(200, fail('invalid_auth'));
    return answer(200, deps.socketMode.open());
  }
  if (token !== deps.env.settings.botToken) return answer(200, fail('invalid_auth'));
  const handler = Object.hasOwn(deps.methods, method) ? deps.methods[method] : undefined;
  if (!handler) return answer(200, fail('unknown_method'));
  // Slack names the token's scopes on every authenticated answer.
  answer(200, handler(args, deps.env), { 'x-oauth-scopes': deps.env.settings.scopes.join(',') });
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(req, res, deps).catch((err: unknown) => {
      deps.recorder.problems.push(`fake Slack failed on ${req.url ?? '?'}: ${String(err)}`);
      if (res.headersSent) res.end();
      else sendJson(res, 500, fail('fatal_error'));
    });
  };
}
