/**
 * Assembles Rampart's HTTP server for one process: the probes and /metrics in
 * every role, Bolt's handler at POST /slack/events in HTTP mode; api/ and web/ mount here later.
 */
import type { RequestListener } from 'node:http';
import type { Queue } from 'bullmq';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { type OwnConnections, readiness, type ServiceReachability } from '../../metrics/health.js';
import { healthDetail } from '../../metrics/health-detail.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { RedisClient } from '../../redis-client.js';
import { metricsRoute } from './metrics-route.js';
import { mountProbes } from './probes.js';
import { type Handler, type Method, Router } from './router.js';
import { createHttpServer, type HttpServer } from './server.js';

/** An adapter under a path prefix, with its body limit and (serving HTML) its own CSP. */
export interface Mount {
  prefix: string;
  methods: readonly Method[];
  handler: Handler;
  bodyLimit?: number;
  csp?: string;
}

export interface HttpDeps {
  config: Pick<Config, 'role' | 'port' | 'metricsToken'> & { redis: { prefix: string } };
  log: Logger;
  metrics: Metrics;
  /** The connections this process's own job needs (readiness). */
  own: OwnConnections;
  /** The fail-fast connection, for the detail's shared reads. */
  redis: RedisClient;
  service: ServiceReachability;
  queues: readonly Queue[];
  frozenSince(): Promise<number | undefined>;
  sandbox: boolean;
  now(): number;
  /** Bolt's handler (HTTP mode only). */
  slackEvents?: { listener: RequestListener; bodyLimit: number } | undefined;
  /** Adapters under a path prefix: the passkey pages (web/), the HTTP API (api/). */
  mounts?: readonly Mount[];
}

export async function startHttp(d: HttpDeps): Promise<HttpServer & { port: number }> {
  const router = mountProbes(new Router(), {
    readiness: () => readiness(d.own),
    detail: () =>
      healthDetail({
        role: d.config.role,
        own: d.own,
        redis: d.redis,
        prefix: d.config.redis.prefix,
        service: d.service,
        queues: d.queues,
        frozenSince: d.frozenSince,
        sandbox: d.sandbox,
        now: d.now,
      }),
  });
  router.get('/metrics', metricsRoute(d.metrics, d.config.metricsToken, d.log));
  if (d.slackEvents) router.post('/slack/events', d.slackEvents.listener, { bodyLimit: d.slackEvents.bodyLimit });
  for (const m of d.mounts ?? [])
    router.mount(m.prefix, m.methods, m.handler, {
      ...(m.bodyLimit === undefined ? {} : { bodyLimit: m.bodyLimit }),
      ...(m.csp ? { csp: m.csp } : {}),
    });
  const server = createHttpServer(router, d.log);
  const port = await server.listen(d.config.port);
  return { ...server, port };
}
