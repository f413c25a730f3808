/**
 * The sandbox over real HTTP (node:http): the ten operations of the service interface with its
 * envelope (spec 2.1), auth (spec 5), request validation by the client's own zod schemas, and
 * fault knobs. For development, demos and tests; never for production.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { Logger } from '../log.js';
import {
  DEFAULT_QUERY_PARAMS,
  OPERATION_NAMES,
  OPERATIONS,
  type Operation,
  type OperationSpec,
  type QueryParams,
  type RequestOf,
} from '../service/operations.js';
import * as s from '../service/schemas.js';
import { type FaultResponse, faultResponse, SandboxFaults } from './faults.js';
import { Refusal, type SandboxSeed, SandboxState } from './state.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The x-service-key value the nine key-authorised operations require. */
  apiKey: string;
  /** The Bearer token POST /user requires; when unset every POST /user is refused with 401. */
  bearerToken?: string | undefined;
  seed?: SandboxSeed;
  /** Query parameter names (spec leaves them unnamed); same defaults as the client. */
  params?: Partial<QueryParams>;
  log?: Logger;
}

export interface Sandbox {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly state: SandboxState;
  readonly faults: SandboxFaults;
  readonly params: QueryParams;
  /** Stops listening and destroys every open socket, hanging ones included. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

interface Route {
  auth: 'key' | 'bearer';
  status: 200 | 201;
  message: string;
  run(request: { body: unknown; query: Record<string, string> }): unknown;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const checked = schema.safeParse(body);
  if (!checked.success) throw new Refusal(400, s.describeZodError(checked.error).message);
  return checked.data;
}

function required(query: Record<string, string>, name: string): string {
  const value = query[name]?.trim();
  if (!value) throw new Refusal(400, `${name}: query parameter is required`);
  return value;
}

/** What each operation does here; its method, path, auth, status and schemas come from OPERATIONS. */
type Handlers = {
  [K in Operation]: { message: string; run(input: { body: RequestOf<K>; id: string }): unknown };
};

const handlersFor = (state: SandboxState): Handlers => ({
  createUser: { message: 'User created', run: (r) => state.createUser(r.body) },
  transfer: { message: 'Transfer initiated', run: (r) => state.transfer(r.body) },
  createBeneficiary: { message: 'Beneficiary created', run: (r) => state.createBeneficiary(r.body) },
  offramp: { message: 'Offramp initiated', run: (r) => state.offramp(r.body) },
  createIdentity: { message: 'Identity created', run: (r) => state.createIdentity(r.body) },
  getIdentity: { message: 'Identity retrieved', run: (r) => state.getIdentity(r.id) },
  lookupAccount: { message: 'Account verified', run: (r) => state.lookup(r.body) },
  getWallet: { message: 'Wallet retrieved', run: (r) => state.getWallet(r.id) },
  getBalances: { message: 'Balances retrieved', run: (r) => state.getBalances(r.id) },
  getOnrampRate: { message: 'Rate retrieved', run: (r) => state.rate(r.id) },
});

function routesFor(state: SandboxState, p: QueryParams): Map<string, Route> {
  const handlers = handlersFor(state);
  const routes = new Map<string, Route>();
  for (const name of OPERATION_NAMES) {
    const op: OperationSpec = OPERATIONS[name];
    // The body was parsed by this operation's own request schema, so it is its RequestOf.
    const handler = handlers[name] as { message: string; run(input: { body: unknown; id: string }): unknown };
    routes.set(`${op.method} ${op.path}`, {
      auth: op.auth,
      status: op.status,
      message: handler.message,
      run: (r) =>
        handler.run({
          body: op.request ? parse(op.request, r.body) : undefined,
          id: op.query ? required(r.query, p[op.query]) : '',
        }),
    });
  }
  return routes;
}

function authorise(route: Route, headers: IncomingHttpHeaders, apiKey: string, bearerToken: string | undefined): void {
  if (route.auth === 'key') {
    const key = headers['x-service-key'];
    if (key === undefined || key === '') throw new Refusal(401, 'missing x-service-key header');
    if (key !== apiKey) throw new Refusal(401, 'invalid x-service-key');
    return;
  }
  // spec 5: POST /user carries Authorization: Bearer <ACCESS_TOKEN>
  const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (token === undefined) throw new Refusal(401, 'missing Authorization: Bearer token');
  if (bearerToken === undefined || token !== bearerToken) throw new Refusal(401, 'invalid bearer token');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, 'body is larger than 1 MB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type Parsed = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string };
function parseBody(text: string): Parsed {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'text', value: text };
  }
}

const json = (status: number, payload: unknown): FaultResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(payload),
});

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const state = new SandboxState(options.seed);
  const faults = new SandboxFaults();
  const params = { ...DEFAULT_QUERY_PARAMS, ...options.params };
  const routes = routesFor(state, params);
  const sockets = new Set<Socket>();
  const closing = new AbortController();

  async function answer(req: IncomingMessage): Promise<{ response: FaultResponse; hang: boolean }> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/(.)\/+$/, '$1');
    const body = parseBody(await readBody(req));
    const query = Object.fromEntries(url.searchParams);
    const at = new Date().toISOString();
    state.received.push({ method, path, query, body: body.kind === 'empty' ? undefined : body.value, at });
    const failure = faults.takeFailure(path);
    if (failure) return { response: faultResponse(failure, at), hang: false };
    const hang = faults.takeHang(path);
    try {
      const route = routes.get(`${method} ${path}`);
      if (!route) throw new Refusal(404, `no operation ${method} ${path}`);
      authorise(route, req.headers, options.apiKey, options.bearerToken);
      if (body.kind === 'text') throw new Refusal(400, 'body is not valid JSON');
      const data = route.run({ body: body.kind === 'json' ? body.value : undefined, query });
      const envelope = { success: true, status: route.status, message: route.message, timestamp: at, data };
      return { response: json(route.status, envelope), hang };
    } catch (err) {
      return { response: refusal(err), hang };
    }
  }

  function refusal(err: unknown): FaultResponse {
    if (!(err instanceof Refusal)) options.log?.error({ err }, 'sandbox handler failed');
    const status = err instanceof Refusal ? err.status : 500;
    const message = err instanceof Refusal ? err.message : 'internal sandbox error';
    return json(status, { success: false, status, message, timestamp: new Date().toISOString() });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { response, hang } = await answer(req).catch((err: unknown) => ({ response: refusal(err), hang: false }));
    options.log?.info({ method: req.method, path: req.url, status: response.status, hang }, 'sandbox request');
    if (hang) return; // the effect is applied; the socket stays open until close()
    if (faults.latencyMs > 0) await sleep(faults.latencyMs, undefined, { signal: closing.signal }).catch(() => {});
    if (closing.signal.aborted) return;
    res.writeHead(response.status, response.headers).end(response.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log?.error({ err }, 'sandbox could not answer');
      res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    state,
    faults,
    params,
    async close() {
      if (closing.signal.aborted) return;
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
