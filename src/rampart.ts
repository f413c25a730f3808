/**
 * The wiring (issue 12 item 2): takes its infrastructure — Redis connections, the service, the
 * Slack Web API client, the clock — with production defaults built from the Config, and builds
 * the store, queues, the Bolt app (web role) and the workers (worker role) on it. main.ts calls
 * it for production; tests and the bench pass decorated or local objects through the same door.
 */
import { WebClient } from '@slack/web-api';
import { apiDeps, idempotencyRecordsByKey } from './api/deps.js';
import { createApiHandler } from './api/handler.js';
import { type AuditWebhook, createAuditWebhook, type DeliveryOptions } from './audit/webhook-delivery.js';
import type { Config } from './config.js';
import { connectService, type ServiceConnection } from './connect-service.js';
import { isFinal } from './domain/request.js';
import { startHttp } from './http/serve.js';
import type { Logger } from './log.js';
import { timeAcks } from './metrics/ack-timer.js';
import { countBatchRows, registerBatchGauge } from './metrics/batch-rows.js';
import { type OwnConnections, ServiceReachability } from './metrics/health.js';
import { registerHealthGauges } from './metrics/health-gauges.js';
import { startHeartbeat } from './metrics/heartbeat.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { callOutcome } from './metrics/service-calls.js';
import { metricSources } from './metrics/sources.js';
import { createQueues, type Queues } from './queue/queues.js';
import { startWorkers, type WorkerDeps, type Workers } from './queue/worker.js';
import type { Sandbox } from './sandbox/index.js';
import type { ServiceClient } from './service/client.js';
import { closeInOrder } from './shutdown.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { SlackApproverDirectory } from './slack/approvers.js';
import type { Deps } from './slack/deps.js';
import { publishHome } from './slack/events/home.js';
import { HomeRefresher } from './slack/home-refresh.js';
import { slackNotifier } from './slack/notifier.js';
import { slackReportPoster } from './slack/report-send.js';
import { slackClientOptions } from './slack-api/client-options.js';
import { slackPasskeyNotices } from './slack-api/passkey-notices.js';
import { BalanceCache } from './store/balance-cache.js';
import { BalanceHistory } from './store/balance-history.js';
import { ControlStore, UnfreezeStore } from './store/controls.js';
import { durableStart } from './store/durable.js';
import { PasskeyStore } from './store/passkeys.js';
import { RateLimiter } from './store/rate-limiter.js';
import { closeRedis, openRedis, type RedisClient } from './store/redis.js';
import { Registry } from './store/registry.js';
import { ReportMarks } from './store/report-marks.js';
import { type ChangeListener, RequestStore } from './store/requests.js';
import { StepUpTokens } from './store/step-up-tokens.js';
import { webMounts } from './web/mount.js';

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

/** Decorators the bench and tests wrap around what Rampart builds (no monkeypatching of a running instance). */
export interface Decorators {
  service?(service: ServiceClient): ServiceClient;
  store?(store: RequestStore, role: 'web' | 'worker'): RequestStore;
  queues?(queues: Queues, role: 'web' | 'worker'): Queues;
}

export interface RampartOptions {
  infra?: Partial<Infrastructure>;
  decorate?: Decorators;
  /** Worker timings for tests (see WorkerDeps). */
  worker?: {
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    reconcileEveryMs?: number;
    name?: string;
    freezeRecheckMs?: number;
  };
  /** One registry per instance (default: a new one), so instances in one process never collide. */
  metrics?: Metrics;
  /** Audit webhook retry timings for tests (production: from 5 s, doubling, at most 15 min apart, until delivered). */
  auditDelivery?: DeliveryOptions;
}

export interface Running {
  deps: Deps;
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

function weeklyReport(
  config: Config,
  redis: RedisClient,
  store: RequestStore,
  poster: ReturnType<typeof slackReportPoster>,
): { weekly?: WorkerDeps['weekly'] } {
  const { at, channel } = config.reports;
  if (!at || !channel) return {};
  const marks = new ReportMarks(redis, config.redis.prefix);
  return {
    weekly: { at, channel, rules: config.controls.velocity, store, poster, claim: (runAt) => marks.claimWeekly(runAt) },
  };
}

export async function startRampart(config: Config, log: Logger, options: RampartOptions = {}): Promise<Running> {
  const given = options.infra ?? {};
  const now = given.clock ?? Date.now;
  const decorate = options.decorate ?? {};
  // Separate connections (issue 10): Slack handling fails fast, workers wait for Redis.
  const redis = given.redis ?? (await openRedis(config.redis, 'requests', log));
  let workerRedis: RedisClient | undefined;
  try {
    if (config.role !== 'web') workerRedis = given.workerRedis ?? (await openRedis(config.redis, 'workers', log));
  } catch (err) {
    if (!given.redis) redis.disconnect();
    throw err;
  }

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
  const service = decorate.service?.(connection.service) ?? connection.service;
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
  // Every state change, from either connection's store: counted, and queued for the audit webhook.
  let homes: HomeRefresher | undefined;
  const counted: ChangeListener = (c) => {
    metrics.requestChanged(c.kind, c.state);
    if (isFinal(c.state)) homes?.changed(); // issue 24: App Home's last outcomes
    audit
      ?.enqueue(c.id, c.seq)
      .catch((err: unknown) => log.error({ err, requestId: c.id }, 'could not queue an audit webhook event'));
  };
  const webStore = new RequestStore(redis, config.redis.prefix, now, counted);
  // Issue 20: batch rows by final state, and batches by state.
  countBatchRows(webStore, metrics, { redis, prefix: config.redis.prefix, log });
  registerBatchGauge(metrics, webStore, { redis, prefix: config.redis.prefix, log });
  const store = decorate.store?.(webStore, 'web') ?? webStore;
  const registry = new Registry(redis, config.redis.prefix);
  const controls = new ControlStore(redis, config.redis.prefix);
  const webQueues = createQueues(redis, config.redis.prefix, log);
  const queues = decorate.queues?.(webQueues, 'web') ?? webQueues;
  const watched = [queues.execute, queues.expire, queues.notifications, ...(audit ? [audit.queue] : [])];
  metrics.watch(
    metricSources(store, watched, now, audit && (() => audit.backlog(webStore)), () =>
      idempotencyRecordsByKey(redis, config.redis.prefix),
    ),
  );
  registerHealthGauges(metrics, { redis, prefix: config.redis.prefix, now });
  const slackClient = given.slack ?? new WebClient(config.slack.botToken, slackClientOptions(config.slack.apiUrl));
  const deps: Deps = {
    config,
    service,
    store,
    queues,
    approvers: new SlackApproverDirectory(config.approvers, slackClient, config.approverCacheMs, now),
    identityCreators: new SlackApproverDirectory(config.identityCreators, slackClient, config.approverCacheMs, now),
    registry,
    controls,
    unfreeze: new UnfreezeStore(redis, config.redis.prefix, controls),
    passkeys: new PasskeyStore(redis, config.redis.prefix),
    stepUpTokens: new StepUpTokens(redis, config.redis.prefix),
    notices: slackPasskeyNotices(slackClient, {
      approvalsChannel: config.approvalsChannel,
      sandbox: sandbox !== undefined,
      log,
    }),
    log,
    now,
    sandbox: sandbox !== undefined,
    dashboard: {
      history: new BalanceHistory(redis, config.redis.prefix),
      cache: new BalanceCache(redis, config.redis.prefix),
    },
  };
  homes = new HomeRefresher(redis, config.redis.prefix, (user) => publishHome(deps, slackClient, user), now, log);
  deps.homeRefresh = homes;

  let workers: Workers | undefined;
  let heartbeat: { stop(): Promise<void> } | undefined;
  let workerQueues: Queues | undefined;
  if (workerRedis) {
    const workerName = options.worker?.name ?? `worker-${process.pid}`;
    heartbeat = startHeartbeat(redis, config.redis.prefix, workerName, now, log);
    const builtQueues = createQueues(workerRedis, config.redis.prefix, log);
    workerQueues = decorate.queues?.(builtQueues, 'worker') ?? builtQueues;
    const workerStore = new RequestStore(workerRedis, config.redis.prefix, now, counted);
    countBatchRows(workerStore, metrics, { redis: workerRedis, prefix: config.redis.prefix, log });
    const workerControls = new ControlStore(workerRedis, config.redis.prefix);
    audit?.startWorker({ redis: workerRedis, store: workerStore });
    workers = startWorkers({
      redis: workerRedis,
      prefix: config.redis.prefix,
      service,
      store: decorate.store?.(workerStore, 'worker') ?? workerStore,
      registry: new Registry(workerRedis, config.redis.prefix),
      controls: workerControls,
      queues: workerQueues,
      // Issue 20: one limiter key for every process (hash-tagged prefix: one cluster slot).
      batch: { pauseAfterFailures: config.batch.pauseAfterFailures, holdLimitMs: config.batch.holdLimitMs },
      ...(config.batch.rate
        ? { batchRate: new RateLimiter(workerRedis, `${config.redis.prefix}:batch:rate`, config.batch.rate) }
        : {}),
      notifier: slackNotifier({
        client: slackClient,
        approvalsChannel: config.approvalsChannel,
        sandbox: sandbox !== undefined,
        log,
        controls: workerControls,
      }),
      log,
      approvalsChannel: config.approvalsChannel,
      now,
      // Issue 19: the start is on a replica (WAIT 1) before any call, when Redis has replicas.
      durable: durableStart(workerRedis, {
        waitMs: config.redis.waitMs,
        key: `${config.redis.prefix}:exec:executing`,
        log,
      }),
      // Issue 24: balance history for the charts, one snapshot per period across every worker.
      snapshots: {
        history: new BalanceHistory(workerRedis, config.redis.prefix),
        wallets: config.wallets,
        everyMs: config.reports.snapshotEveryMs,
      },
      // Issue 24: REPORT_CHANNEL + REPORT_AT, posted once a week across every worker.
      ...weeklyReport(
        config,
        workerRedis,
        workerStore,
        slackReportPoster({ client: slackClient, log, sandbox: sandbox !== undefined }),
      ),
      reminders: {
        approvers: new SlackApproverDirectory(config.approvers, slackClient, config.approverCacheMs, now),
        escalateTo: new SlackApproverDirectory(config.controls.escalateTo, slackClient, config.approverCacheMs, now),
        reminderAfterMs: config.controls.reminderAfterMs,
        reminderMax: config.controls.reminderMax,
      },
      ...options.worker,
    });
  }
  // issue 18 §2: one server of Rampart's own in every role; Bolt's handler is one of its routes.
  const slack: SlackApp | undefined =
    config.role === 'worker'
      ? undefined
      : createSlackApp(deps, slackClient, (receiver) => timeAcks(receiver, metrics, '/slack/events'));
  // issue 19: ready when this process's own connections answer (web: fail-fast; worker: its queues').
  const own: OwnConnections = {
    ...(config.role === 'worker' ? {} : { requests: redis }),
    ...(workerRedis ? { queues: workerRedis } : {}),
  };
  const http = await startHttp({
    config,
    log,
    metrics,
    own,
    redis,
    service: reachability,
    queues: watched,
    frozenSince: async () => (await controls.freeze())?.at,
    sandbox: sandbox !== undefined,
    now,
    slackEvents: slack?.events,
    mounts:
      config.role === 'worker'
        ? []
        : [
            ...webMounts(deps, metrics),
            // Issue 21: the HTTP API answers its own 413 (problem+json) at 1 MB; the router's cap is a backstop.
            {
              prefix: '/api/v1/',
              methods: ['GET', 'POST'],
              handler: createApiHandler(apiDeps(deps, redis, slackClient, { rate: config.apiRate })),
              bodyLimit: 4 * 1024 * 1024,
            },
          ],
  });
  await slack?.start();
  // Issue 24: the snapshot and weekly jobs are queued before Rampart says it runs — waiting at
  // most 2 s, so a Redis that is down at start never holds the start-up (every reconcile round
  // schedules them again).
  if (workers)
    await Promise.race([workers.scheduled, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]);
  const { port } = http;
  if (slack) log.info({ port, mode: slack.events ? 'http' : 'socket' }, 'Rampart is listening for Slack');
  else log.info({ port }, 'Rampart worker serves the probes and /metrics');

  return {
    deps,
    sandbox,
    workers,
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
            [() => workers?.close(), () => heartbeat?.stop(), () => audit?.close(), async () => homes?.close()],
          ],
          ['queues', [() => queues.close(), () => workerQueues?.close()]],
          ['http agents', [() => (given.service ? undefined : connection.close())]],
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
