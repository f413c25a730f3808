/**
 * Rampart's own HTTP server in every role, and in the web role the Bolt app, the
 * passkey pages and the HTTP API mounted on it (the adapters start here).
 */
import { apiDeps } from '../adapters/api/deps.js';
import { createApiHandler } from '../adapters/api/handler.js';
import { startHttp } from '../adapters/http/serve.js';
import { createSlackApp, type SlackApp } from '../adapters/slack/app.js';
import { webMounts } from '../adapters/web/mount.js';
import { createApp } from '../app/index.js';
import { timeAcks } from '../metrics/ack-timer.js';
import type { OwnConnections, ServiceReachability } from '../metrics/health.js';
import type { RedisClient } from '../store/redis.js';
import type { AppSide } from './app-deps.js';
import type { Built } from './built.js';

export interface Serving {
  slack: SlackApp | undefined;
  http: Awaited<ReturnType<typeof startHttp>>;
}

export async function startServing(
  b: Built,
  app: AppSide,
  reachability: ServiceReachability,
  workerRedis: RedisClient | undefined,
): Promise<Serving> {
  const { config, log, metrics, redis, now } = b;
  const web = config.role !== 'worker';
  const slack = web
    ? createSlackApp(app.slack, b.slackClient, (receiver) => timeAcks(receiver, metrics, '/slack/events'))
    : undefined;
  // Ready when this process's own connections answer (web: fail-fast; worker: its queues').
  const own: OwnConnections = { ...(web ? { requests: redis } : {}), ...(workerRedis ? { queues: workerRedis } : {}) };
  const http = await startHttp({
    config,
    log,
    metrics,
    own,
    redis,
    service: reachability,
    queues: app.watched,
    frozenSince: async () => (await app.deps.controls.freeze())?.at,
    sandbox: b.sandbox,
    now,
    slackEvents: slack?.events,
    mounts: web
      ? [
          // The pages' app counts each passkey attempt in a metric (the Slack side's offers are not attempts).
          ...webMounts(
            createApp({ ...app.deps, onAttempt: (a) => metrics.stepUpAttempt(a.purpose, a.outcome) }),
            config.stepUp,
            log,
          ),
          // The HTTP API answers its own 413 (problem+json) at 1 MB; the router's cap is a backstop.
          {
            prefix: '/api/v1/',
            methods: ['GET', 'POST'],
            handler: createApiHandler(apiDeps(app.slack.app, { config, log })),
            bodyLimit: 4 * 1024 * 1024,
          },
        ]
      : [],
  });
  await slack?.start();
  return { slack, http };
}
