/**
 * The HTTP API on loopback for tests: createApiHandler mounted on a plain node:http
 * server on 127.0.0.1:0 over a harness's Rampart (its stores, queues and the fake Slack), keys
 * made through the same use case as the CLI, and every answer checked against the OpenAPI document.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { type ApiDeps, apiDeps } from '../../src/adapters/api/deps.js';
import { API_BASE, createApiHandler } from '../../src/adapters/api/handler.js';
import type { BodyLimits } from '../../src/adapters/api/http-io.js';
import { openApiDocument } from '../../src/adapters/api/openapi.js';
import type { OwnerDirectory } from '../../src/adapters/api/owners.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { createApp } from '../../src/app/index.js';
import { apiPorts } from '../../src/compose/api-ports.js';
import type { ApiKey, ApiKeyLimits, ApiScope } from '../../src/domain/api-key.js';
import type { Rate } from '../../src/domain/rate.js';
import type { ApiKeyStore } from '../../src/store/api-keys.js';
import { BOT_TOKEN, type Harness, PEOPLE } from '../support/harness.js';
import { useStarted } from '../support/use-harness.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  /** Problem or resource fields, for terse assertions. */
  json: Record<string, unknown>;
}

export interface Api {
  url: string;
  /** The adapter's deps, with the key store and clock the tests make keys with. */
  deps: ApiDeps & { keys: ApiKeyStore; now: () => number };
  server: Server;
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  idempotencyKey?: string;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface ApiOptions {
  rate?: Rate | undefined;
  owners?: OwnerDirectory;
  body?: Partial<BodyLimits>;
  now?: () => number;
}

export async function startApi(h: Harness, options: ApiOptions = {}): Promise<Api> {
  const slack = new WebClient(BOT_TOKEN, slackClientOptions(h.fake.apiUrl));
  const base = { ...h.rampart.deps, ...(options.now ? { now: options.now } : {}) };
  const ports = apiPorts(base, h.rampart.redis, slack, {
    ...('rate' in options ? { rate: options.rate } : {}),
    ...(options.owners ? { owners: options.owners } : {}),
  });
  const app = createApp({ ...base, api: ports });
  const deps = {
    ...apiDeps(app, base, options.body ? { body: options.body } : {}),
    keys: base.apiKeys,
    now: base.now,
  };
  const handle = createApiHandler(deps);
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_BASE}`;
  return {
    url,
    deps,
    server,
    call: (method, path, o = {}) => call(url, method, path, o),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The API over a harness's Rampart for the enclosing file or block; call it after useHarness. */
export const useApi = (h: Harness, options: ApiOptions = {}): Api =>
  useStarted(
    'API',
    () => startApi(h, options),
    (api) => api.close(),
  );

export async function call(url: string, method: string, path: string, o: CallOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (text !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
  const body = (await res.text()) || 'null';
  const parsed = JSON.parse(body) as unknown;
  const answer = {
    status: res.status,
    headers: res.headers,
    body: parsed,
    json: (parsed ?? {}) as Record<string, unknown>,
  };
  expectConforms(method, path, answer);
  return answer;
}

export interface KeyOptions {
  name?: string;
  owner?: string;
  scopes?: ApiScope[];
  limits?: Partial<ApiKeyLimits>;
  lifetimeMs?: number;
}

let keys = 0;
export async function newKey(api: Api, o: KeyOptions = {}): Promise<{ token: string; key: ApiKey }> {
  const created = await createApiKey(api.deps, {
    name: o.name ?? `erp${++keys}`,
    owner: o.owner ?? PEOPLE.requester,
    scopes: o.scopes ?? ['requests:create', 'requests:read'],
    limits: { maxOpen: 50, allowNewDestinations: false, ...o.limits },
    lifetimeMs: o.lifetimeMs ?? 90 * 86_400_000,
  });
  if (created.kind !== 'created') throw new Error('key name taken');
  return { token: created.token, key: created.key };
}

// The document the server serves, as a JSON Schema base for every answer.
const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...document, $id: 'openapi' });

const pointerPart = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
function templateOf(path: string): string {
  const p = path.split('?')[0] ?? path;
  if (/^\/requests\/[^/]+\/cancel$/.test(p)) return '/requests/{id}/cancel';
  if (/^\/requests\/[^/]+\/executions$/.test(p)) return '/requests/{id}/executions';
  if (/^\/requests\/[^/]+$/.test(p)) return '/requests/{id}';
  if (/^\/schedules\/S-\d+$/.test(p)) return '/schedules/{id}';
  return p;
}

/** Every answer the API tests receive is one the OpenAPI document describes. */
export function expectConforms(method: string, path: string, a: { status: number; headers: Headers; body: unknown }) {
  const template = templateOf(path);
  const operation = (document.paths as Record<string, Record<string, unknown>>)[template]?.[method.toLowerCase()] as
    | { responses: Record<string, { content: Record<string, unknown> }> }
    | undefined;
  if (!operation) return; // an unknown route: its 404/405 problem is checked below
  const response = operation.responses[String(a.status)];
  expect(response, `${method} ${template} ${a.status} is not in the OpenAPI document`).toBeDefined();
  const type = (a.headers.get('content-type') ?? '').split(';')[0] ?? '';
  expect(Object.keys(response?.content ?? {})).toContain(type);
  const ref = `openapi#/paths/${pointerPart(template)}/${method.toLowerCase()}/responses/${a.status}/content/${pointerPart(type)}/schema`;
  const valid = ajv.validate({ $ref: ref }, a.body);
  expect(valid, JSON.stringify(ajv.errors)).toBe(true);
}

export const transfer = (over: Record<string, unknown> = {}) => ({
  wallet: 'ops',
  asset: 'base:usdc',
  amount: '25',
  receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
  reason: 'invoice 4417',
  ...over,
});
