/**
 * The workbench's HTTP server, on 127.0.0.1 only: the page and its two assets, GET /api/state,
 * GET /api/events (Server-Sent Events: "something changed, fetch the state again"), and the
 * POST /api/* actions. Bodies are parsed with zod; requests from other sites are refused (JSON
 * only, so a cross-site form cannot post; Host checked, so DNS rebinding cannot reach it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { readBody, sendJson } from '../fake-slack/http-io.js';
import type { FakeSlack } from '../fake-slack/index.js';
import { type WorkbenchActions, WorkbenchInputError } from './actions.js';
import type { Assets } from './assets.js';
import { type StateSources, workbenchState } from './state.js';

const userInput = z.union([z.string(), z.array(z.string()), z.null(), z.record(z.string(), z.unknown())]);
const userId = z.string().regex(/^[UW][A-Z0-9]+$/, 'a Slack user id');

const schemas = {
  command: z.object({ user: userId, channel: z.string(), text: z.string().max(4000) }),
  click: z.object({
    user: userId,
    actionId: z.string(),
    blockId: z.string(),
    value: userInput.optional(),
    channel: z.string().optional(),
    ts: z.string().optional(),
    viewId: z.string().optional(),
    values: z.record(z.string(), userInput).optional(),
  }),
  submit: z.object({ user: userId, viewId: z.string(), values: z.record(z.string(), userInput) }),
  close: z.object({ user: userId, viewId: z.string(), all: z.boolean().default(false) }),
  suggest: z.object({ user: userId, viewId: z.string(), actionId: z.string(), blockId: z.string(), value: z.string() }),
  home: z.object({ user: userId }),
  // A file picked in a file_input (base64, at most ~1.1 MB once decoded).
  pickFile: z.object({ user: userId, name: z.string().min(1).max(255), content: z.base64().max(1_500_000) }),
} as const;

export interface WorkbenchServerDeps {
  fake: FakeSlack;
  actions: WorkbenchActions;
  sources: StateSources;
  assets: Assets;
  /**
   * Rampart's passkey pages, served here under PUBLIC_URL's path (`/rampart/`), so the
   * "Approve with your passkey" link of the workbench opens a page that works.
   */
  pages?: { path: string; handler: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
  if (type !== 'application/json') throw new HttpError(415, 'send JSON (content-type: application/json)');
  const raw = await readBody(req);
  if (raw.length > 1_600_000) throw new HttpError(413, 'request too large');
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new HttpError(400, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

async function post(path: string, body: unknown, deps: WorkbenchServerDeps): Promise<unknown> {
  const { actions } = deps;
  switch (path) {
    case '/api/command': {
      const b = parse(schemas.command, body);
      return actions.command(b.user, b.channel, b.text);
    }
    case '/api/click':
      return actions.click(parse(schemas.click, body));
    case '/api/submit': {
      const b = parse(schemas.submit, body);
      return actions.submit(b.user, b.viewId, b.values);
    }
    case '/api/close': {
      const b = parse(schemas.close, body);
      await actions.close(b.user, b.viewId, b.all);
      return { ok: true };
    }
    case '/api/suggest': {
      const b = parse(schemas.suggest, body);
      return actions.suggest(b.user, b.viewId, b.actionId, b.blockId, b.value);
    }
    case '/api/home':
      return actions.openHome(parse(schemas.home, body).user);
    case '/api/pick-file': {
      const b = parse(schemas.pickFile, body);
      return deps.fake.pickFile(b.user, b.name, Buffer.from(b.content, 'base64'));
    }
    default:
      throw new HttpError(404, `no such action: ${path}`);
  }
}

/** Tells the page something changed; bursts of changes become one event. */
function events(req: IncomingMessage, res: ServerResponse, fake: FakeSlack): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write('retry: 1000\n\n');
  let version = 0;
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = fake.onChange(() => {
    timer ??= setTimeout(() => {
      timer = undefined;
      version += 1;
      res.write(`data: ${version}\n\n`);
    }, 25);
  });
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  req.on('close', () => {
    unsubscribe();
    clearInterval(keepAlive);
    clearTimeout(timer);
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  ready: Promise<WorkbenchServerDeps>,
  port: number,
): Promise<void> {
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpError(421, 'unexpected Host header');
  const deps = await ready;
  const url = new URL(req.url ?? '/', `http://${host}`);
  if (deps.pages && (url.pathname === deps.pages.path || url.pathname.startsWith(`${deps.pages.path}/`))) {
    if (!(await deps.pages.handler(req, res))) throw new HttpError(404, 'not found');
    return;
  }
  if (req.method === 'GET') {
    if (url.pathname === '/api/state') {
      const user = parse(userId, url.searchParams.get('user'));
      sendJson(res, 200, workbenchState(deps.sources, user), { 'cache-control': 'no-store' });
      return;
    }
    if (url.pathname === '/api/events') {
      events(req, res, deps.fake);
      return;
    }
    if (url.pathname === '/api/file') {
      // A file shared in a thread (a batch's rows, its receipt), to open or save.
      const file = deps.fake.files().find((f) => f.id === url.searchParams.get('id'));
      if (!file?.bytes) throw new HttpError(404, 'no such file');
      // A chart PNG shown by an image block's slack_file.
      if (url.searchParams.get('inline') === '1' && file.mimetype === 'image/png') {
        res.writeHead(200, { 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });
        res.end(file.bytes);
        return;
      }
      res.writeHead(200, {
        'content-type': file.mimetype === 'text/csv' ? 'text/csv; charset=utf-8' : 'application/octet-stream',
        'content-disposition': `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"`,
        'x-content-type-options': 'nosniff',
      });
      res.end(file.bytes);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const asset = deps.assets.get(url.pathname);
    if (!asset) throw new HttpError(404, 'not found');
    res.writeHead(200, asset.headers);
    res.end(asset.body);
    return;
  }
  if (req.method !== 'POST') throw new HttpError(405, 'GET or POST only');
  sendJson(res, 200, await post(url.pathname, await jsonBody(req), deps));
}

export interface WorkbenchServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Binds the port first; `deps` may still be starting (requests wait for them), so a busy port
 * fails before anything else has started.
 */
export async function startWorkbenchServer(
  deps: WorkbenchServerDeps | Promise<WorkbenchServerDeps>,
  port: number,
): Promise<WorkbenchServer> {
  let bound = port;
  const ready = Promise.resolve(deps);
  const server: Server = createServer((req, res) => {
    handle(req, res, ready, bound).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : err instanceof WorkbenchInputError ? 400 : 500;
      const message = err instanceof Error ? err.message : String(err);
      if (res.headersSent) res.end();
      else sendJson(res, status, { error: message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is already in use; set PORT to another port (PORT=0 picks a free one).`)
          : err,
      );
    });
    // A development tool: never reachable from another machine.
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
