/**
 * Rampart's one HTTP server, owned by the composition root: security headers,
 * time-outs and body-size limits in one place, then the router. Bolt's handler, the probes,
 * /metrics and later api/ and web/ are routes on it; no route sets these for itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../log.js';
import { securityHeaders } from './headers.js';
import type { Router } from './router.js';

export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (slowloris). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: number;
  maxHeaderBytes: number;
  /** How often the two time-outs above are checked (node's default, 30 s, lets them run long). */
  checkEveryMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = {
  requestTimeoutMs: 15_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  checkEveryMs: 1_000,
};

/**
 * On every answer (http/headers.ts); a mount that serves HTML (web/) names its own
 * Content-Security-Policy; the default allows nothing to load and nobody to frame us.
 */
export const SECURITY_HEADERS = securityHeaders();

export interface HttpServer {
  server: Server;
  /** Resolves to the bound port (0 picks a free one). */
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

export function createHttpServer(router: Router, log: Logger, limits: HttpLimits = DEFAULT_LIMITS): HttpServer {
  const options = { maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: limits.checkEveryMs };
  const server = createServer(options, (req, res) => {
    handle(router, log, req, res);
  });
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function handle(router: Router, log: Logger, req: IncomingMessage, res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.removeHeader('x-powered-by');
  const path = pathOf(req.url);
  const found = path === undefined ? ({ status: 404 } as const) : router.match(req.method ?? 'GET', path);
  if ('status' in found) {
    if (found.status === 405) res.setHeader('allow', found.allow);
    plain(res, found.status, found.status === 404 ? 'Not found.' : `Use ${found.allow} here.`);
    return;
  }
  const { route } = found;
  if (route.csp) res.setHeader('content-security-policy', route.csp);
  const length = Number(req.headers['content-length'] ?? 0);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (length > route.bodyLimit || (chunked && route.bodyLimit === 0)) {
    // Refused before a byte of the body is read; the connection is not reused.
    res.setHeader('connection', 'close');
    plain(res, 413, `The request body is over ${route.bodyLimit} bytes; send a smaller one.`);
    return;
  }
  const failed = (err: unknown) => {
    log.error({ err, path }, 'an HTTP route failed');
    if (!res.headersSent) plain(res, 500, 'Rampart could not answer this request; see its log.');
    else res.destroy();
  };
  try {
    const done = route.handler(req, res);
    if (done) done.catch(failed);
  } catch (err) {
    failed(err);
  }
}

/** The path without query; undefined for a request target that is not a path ("*", absolute URLs). */
function pathOf(url: string | undefined): string | undefined {
  if (!url?.startsWith('/')) return undefined;
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

export function plain(res: ServerResponse, status: number, sentence: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${sentence}\n`);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
