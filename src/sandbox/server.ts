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
import type { QueryParams } from '../service/client.js';
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

// Same names as the client's defaults (client.ts DEFAULT_PARAMS, config SERVICE_PARAM_*).
export const SANDBOX_DEFAULT_PARAMS: QueryParams = {
  wallet: 'wallet_id',
  balances: 'wallet_id',
  identity: 'identity_id',
  rate: 'currency',
};
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

function routesFor(state: SandboxState, p: QueryParams): Map<string, Route> {
  const key = (status: 200 | 201, message: string, run: Route['run']): Route => ({ auth: 'key', status, message, run });
  return new Map<string, Route>([
    [
      'POST /user',
      { ...key(200, 'User created', (r) => state.createUser(parse(s.createUserRequest, r.body))), auth: 'bearer' },
    ],
    ['POST /transfer', key(200, 'Transfer initiated', (r) => state.transfer(parse(s.transferRequest, r.body)))],
    [
      'POST /beneficiary',
      key(201, 'Beneficiary created', (r) => state.createBeneficiary(parse(s.createBeneficiaryRequest, r.body))),
    ],
    ['POST /offramp', key(200, 'Offramp initiated', (r) => state.offramp(parse(s.offrampRequest, r.body)))],
    [
      'POST /identity',
      key(201, 'Identity created', (r) => state.createIdentity(parse(s.createIdentityRequest, r.body))),
    ],
    ['GET /identity', key(200, 'Identity retrieved', (r) => state.getIdentity(required(r.query, p.identity)))],
    ['POST /lookup', key(200, 'Account verified', (r) => state.lookup(parse(s.lookupRequest, r.body)))],
    ['GET /wallet', key(200, 'Wallet retrieved', (r) => state.getWallet(required(r.query, p.wallet)))],
    ['GET /balances', key(200, 'Balances retrieved', (r) => state.getBalances(required(r.query, p.balances)))],
    ['GET /rate/onramp', key(200, 'Rate retrieved', (r) => state.rate(required(r.query, p.rate)))],
  ]);
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
  const params = { ...SANDBOX_DEFAULT_PARAMS, ...options.params };
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
