/**
 * The composition root (split in ): takes its infrastructure — Redis
 * connections, the service, the Slack Web API client, the clock — with production defaults built
 * from the Config; builds the app (compose/app-deps.ts); starts the worker role
 * (compose/worker-role.ts) and the HTTP server with the web role's adapters (compose/web-role.ts).
 * main.ts calls it for production; tests and the bench pass decorated or local objects through
 * the same door.
 */
import { WebClient } from '@slack/web-api';
import type { Workers } from './adapters/jobs/worker.js';
import type { SlackApp } from './adapters/slack/app.js';
import type { HomeRefresher } from './adapters/slack/home-refresh.js';
import { slackClientOptions } from './adapters/slack/web-api/client-options.js';
import { noteOnSandbox } from './adapters/slack/web-api/sandbox-note.js';
import { type AuditWebhook, createAuditWebhook, type DeliveryOptions } from './audit/webhook-delivery.js';
import { buildAppDeps, type WebDeps } from './compose/app-deps.js';
import type { Built, Decorators } from './compose/built.js';
import { closeScreeningFetch } from './compose/screening-fetch.js';
import { startServing } from './compose/web-role.js';
import { startWorkerRole, type WorkerOptions, type WorkerRole } from './compose/worker-role.js';
import type { Config } from './config.js';
import { connectService, type ServiceConnection } from './connect-service.js';
import { isFinal } from './domain/request.js';
import type { Logger } from './log.js';
import { ServiceReachability } from './metrics/health.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { callOutcome } from './metrics/service-calls.js';
import type { Sandbox } from './sandbox/index.js';
import { ScreeningServiceClient } from './service/screening-service.js';
import { closeInOrder } from './shutdown.js';
import { closeRedis, openRedis, type RedisClient } from './store/redis.js';
import type { ChangeListener } from './store/requests.js';

export type { Decorators };

/** What Rampart runs on. Anything given is used as is and closed by its owner, not by Rampart. */
export interface Infrastructure {
  /** The fail-fast connection of request handling. */
  redis: RedisClient;
  /** The patient connection of the workers (worker roles only). */
  workerRedis: RedisClient;
  service: ServiceConnection;
  /** The one Web API client of our own code: authorize, approver directories, the workers' notifier. */
  slack: WebClient;
  clock: () => number;
}

export interface RampartOptions {
  infra?: Partial<Infrastructure>;
  decorate?: Decorators;
  /** Worker timings for tests (see WorkerDeps). */
  worker?: WorkerOptions;
  /** One registry per instance (default: a new one), so instances in one process never collide. */
  metrics?: Metrics;
  /** Audit webhook retry timings for tests (production: from 5 s, doubling, at most 15 min apart, until delivered). */
  auditDelivery?: DeliveryOptions;
}

export interface Running {
  /** The one bag the web role's adapters bind (the Slack listeners get its façade). */
  deps: WebDeps;
  sandbox: Sandbox | undefined;
  workers: Workers | undefined;
  slack: SlackApp | undefined;
  /** Port of Rampart's HTTP server: /slack/events (HTTP mode), the probes and /metrics. */
  port: number | undefined;
  /** The fail-fast connection of request handling (and /healthz). */
  redis: RedisClient;
  /** The patient connection of the workers (worker role). */
  workerRedis: RedisClient | undefined;
  metrics: Metrics;
  /** Stops receiving, lets running jobs finish, then closes queues, HTTP agents and Redis. */
  close(): Promise<void>;
}

/** Separate connections: Slack handling fails fast, workers wait for Redis. */
async function openConnections(config: Config, log: Logger, given: Partial<Infrastructure>) {
  const redis = given.redis ?? (await openRedis(config.redis, 'requests', log));
  try {
    const workerRedis =
      config.role !== 'web' ? (given.workerRedis ?? (await openRedis(config.redis, 'workers', log))) : undefined;
    return { redis, workerRedis };
  } catch (err) {
    if (!given.redis) redis.disconnect();
    throw err;
  }
}

export async function startRampart(config: Config, log: Logger, options: RampartOptions = {}): Promise<Running> {
  const given = options.infra ?? {};
  const now = given.clock ?? Date.now;
  const { redis, workerRedis } = await openConnections(config, log, given);

  const metrics = options.metrics ?? createMetrics();
  const reachability = new ServiceReachability();
  const connection =
    given.service ??
    (await connectService(config, log, (operation, err, seconds) => {
      const outcome = callOutcome(err);
      metrics.serviceCall(operation, outcome, seconds);
      reachability.record(outcome, now());
    }));
  const { sandbox } = connection;
  const decorate = options.decorate ?? {};
  if (sandbox) {
    log.warn('SERVICE_BASE_URL is not set: running against the built-in sandbox (no real money)');
    log.debug({ url: sandbox.url }, 'sandbox listening');
  }
  const audit: AuditWebhook | undefined = config.auditWebhook
    ? createAuditWebhook({
        redis,
        prefix: config.redis.prefix,
        ...config.auditWebhook,
        log,
        now,
        ...(options.auditDelivery ? { options: options.auditDelivery } : {}),
      })
    : undefined;
  let homes: HomeRefresher | undefined;
  const counted: ChangeListener = (c) => {
    metrics.requestChanged(c.kind, c.state);
    if (isFinal(c.state)) homes?.changed(); // App Home's last outcomes
    // The audit job goes after what the changing step sends next (a start's service
    // call), never in front of it; a process that stops first leaves it to the sweep.
    if (audit)
      setImmediate(() => {
        audit
          .enqueue(c.id, c.seq)
          .catch((err: unknown) => log.error({ err, requestId: c.id }, 'could not queue an audit webhook event'));
      });
  };
  const built: Built = {
    config,
    log,
    now,
    decorate,
    metrics,
    redis,
    service: decorate.service?.(connection.service) ?? connection.service,
    sandbox: sandbox !== undefined,
    // On the sandbox every message and view posted through it says so.
    slackClient: noteOnSandbox(
      given.slack ?? new WebClient(config.slack.botToken, slackClientOptions(config.slack.apiUrl)),
      sandbox !== undefined,
    ),
    audit,
    counted,
    screeningService: config.screening.service ? new ScreeningServiceClient(config.screening.service) : undefined,
  };
  const app = buildAppDeps(built);
  homes = app.homes;
  const worker: WorkerRole | undefined = workerRedis ? startWorkerRole(built, workerRedis, options.worker) : undefined;
  const { slack, http } = await startServing(built, app, reachability, workerRedis);
  // The snapshot and weekly jobs are queued before Rampart says it runs — waiting at
  // most 2 s, so a Redis that is down at start never holds the start-up (every reconcile round
  // schedules them again).
  if (worker)
    await Promise.race([worker.workers.scheduled, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]);
  const { port } = http;
  if (slack) log.info({ port, mode: slack.events ? 'http' : 'socket' }, 'Rampart is listening for Slack');
  else log.info({ port }, 'Rampart worker serves the probes and /metrics');

  return {
    deps: app.deps,
    sandbox,
    workers: worker?.workers,
    slack,
    port,
    redis,
    metrics,
    workerRedis,
    async close() {
      const owned = (r: RedisClient | undefined, isGiven: boolean) => (r && !isGiven ? closeRedis(r) : undefined);
      await closeInOrder(
        [
          // Stop receiving first, then let running jobs finish (SIGTERM must not cut a money call in half).
          ['receivers', [() => slack?.stop(), () => http.close()]],
          [
            'workers',
            [
              () => worker?.workers.close(),
              () => worker?.heartbeat.stop(),
              () => audit?.close(),
              async () => homes?.close(),
            ],
          ],
          ['queues', [() => app.queues.close(), () => worker?.queues.close()]],
          [
            'http agents',
            [
              () => (given.service ? undefined : connection.close()),
              () => built.screeningService?.close(),
              () => closeScreeningFetch(),
            ],
          ],
          [
            'redis',
            [() => owned(redis, given.redis !== undefined), () => owned(workerRedis, given.workerRedis !== undefined)],
          ],
        ],
        log,
      );
    },
  };
}
