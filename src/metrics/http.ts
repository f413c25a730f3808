/**
 * GET /metrics and GET /healthz as plain node:http handlers: Bolt serves them as custom routes
 * (web role), and a small server serves them on PORT when no Slack receiver runs (worker role).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { HealthReport } from './health.js';
import type { Metrics } from './metrics.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Loopback callers need nothing; others need `Authorization: Bearer METRICS_TOKEN` when it is set. */
export function mayScrape(req: IncomingMessage, token: string | undefined): boolean {
  if (LOOPBACK.has(req.socket.remoteAddress ?? '')) return true;
  if (token === undefined) return true;
  const given = Buffer.from(req.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export function metricsHandler(metrics: Metrics, token: string | undefined, log: Logger): Handler {
  return (req, res) => {
    if (!mayScrape(req, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
      res.end('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(text);
      },
      (err: unknown) => {
        log.error({ err }, 'metrics could not be collected');
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('metrics could not be collected; see the log.\n');
      },
    );
  };
}

export function healthHandler(report: () => Promise<HealthReport>): Handler {
  return (_req, res) => {
    void report()
      .catch((): HealthReport => ({ ok: false, redis: 'down' }))
      .then((body) => {
        res.writeHead(body.ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
  };
}

/** The worker role's own listener on PORT: /metrics and /healthz, nothing else. */
export async function startOpsServer(port: number, routes: Record<string, Handler>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const handler = req.method === 'GET' ? routes[path] : undefined;
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return server;
}

export const boundPort = (server: Server): number => (server.address() as AddressInfo).port;
