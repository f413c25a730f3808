/**
 * The three probes:
 * - GET /livez: 200 while the event loop runs; reads nothing (a restart fixes nothing else);
 * - GET /readyz: 200 when THIS process can do its own job — its own Redis connections answer
 *   within PROBE_BOUND_MS; never the service, never other processes;
 * - GET /healthz: the detail as JSON, 200 unless this process cannot serve.
 */

import type { Readiness } from '../../metrics/health.js';
import type { HealthDetail } from '../../metrics/health-detail.js';
import type { Handler, Router } from './router.js';
import { json, plain } from './server.js';

export interface ProbeSources {
  readiness(): Promise<Readiness>;
  detail(): Promise<HealthDetail>;
}

export function mountProbes(router: Router, sources: ProbeSources): Router {
  return router.get('/livez', livez).get('/readyz', readyz(sources)).get('/healthz', healthz(sources));
}

const livez: Handler = (_req, res) => plain(res, 200, 'live');

const readyz =
  (sources: ProbeSources): Handler =>
  async (_req, res) => {
    const r = await sources.readiness();
    json(res, r.ready ? 200 : 503, r);
  };

const healthz =
  (sources: ProbeSources): Handler =>
  async (_req, res) => {
    const d = await sources.detail();
    json(res, d.ok ? 200 : 503, d);
  };
