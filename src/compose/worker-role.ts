/**
 * The worker role: its own patient Redis connection, queues and store, the
 * heartbeat, the audit webhook's worker, and the BullMQ workers with everything they report through.
 */

import { SlackOwnerDirectory } from '../adapters/api/owners.js';
import type { Queues } from '../adapters/jobs/queues.js';
import { startWorkers, type Workers } from '../adapters/jobs/worker.js';
import { slackNotifier } from '../adapters/slack/notifier.js';
import { slackReportPoster } from '../adapters/slack/report-send.js';
import { cardCommitments } from '../app/commitments.js';
import { passkeyHolders } from '../app/passkey-holders.js';
import { viewOf } from '../app/series/reads.js';
import type { WeeklyReportDeps } from '../app/weekly-report.js';
import { createWorkerApp } from '../app/worker-app.js';
import { startHeartbeat } from '../metrics/heartbeat.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { BalanceHistory } from '../store/balance-history.js';
import { durableStart } from '../store/durable.js';
import { PasskeyStore } from '../store/passkeys.js';
import type { RedisClient } from '../store/redis.js';
import { ReportMarks } from '../store/report-marks.js';
import type { RequestStore } from '../store/requests.js';
import { SeriesStore } from '../store/series.js';
import type { Built } from './built.js';
import { buildPorts, slackDirectory } from './ports.js';
import { progressLimits } from './progress-limits.js';
import { fetchScreeningList } from './screening-fetch.js';

export interface WorkerRole {
  workers: Workers;
  queues: Queues;
  heartbeat: { stop(): Promise<void> };
}

/** Worker timings for tests (see WorkerDeps). */
export interface WorkerOptions {
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  reconcileEveryMs?: number;
  name?: string;
  freezeRecheckMs?: number;
  /** false: this worker takes no wakes, as a worker of an earlier version (tests). */
  takesWakes?: boolean;
}

export function startWorkerRole(b: Built, workerRedis: RedisClient, options: WorkerOptions = {}): WorkerRole {
  const { config, now, slackClient } = b;
  const prefix = config.redis.prefix;
  const name = options.name ?? `worker-${process.pid}`;
  const log = b.log.child({ component: 'worker', worker: name });
  const heartbeat = startHeartbeat(b.redis, prefix, name, now, b.log);
  // The workers' ports on their own patient connection, bound once into the worker app.
  const { deps: ports, undecorated: store } = buildPorts(b, workerRedis, 'worker');
  b.audit?.startWorker({ redis: workerRedis, store });
  const seriesStore = new SeriesStore(workerRedis, ports.store.keys, now);
  const app = createWorkerApp({
    service: ports.service,
    store: ports.store,
    registry: ports.registry,
    controls: ports.controls,
    jobs: ports.queues,
    log,
    now,
    workerName: name,
    // BATCH_RATE's limiter is one key for every process, admitted inside the start script.
    batch: {
      pauseAfterFailures: config.batch.pauseAfterFailures,
      holdLimitMs: config.batch.holdLimitMs,
      rate: config.batch.rate,
    },
    addressCooldownMs: config.destinations.cooldownMs,
    destinationsMode: config.destinations.mode,
    screening: { mode: config.screening.mode, maxAgeMs: config.screening.maxAgeMs },
    screeningRefresh: {
      listUrl: config.screening.listUrl,
      refreshMs: config.screening.refreshMs,
      fetchList: fetchScreeningList,
    },
    progressLimits: progressLimits(workerRedis, prefix),
    notifier: slackNotifier({
      client: slackClient,
      approvalsChannel: config.approvalsChannel,
      log: b.log,
      controls: ports.controls,
      approvers: config.approvers,
      screeningNotify: config.screening.notify,
      passkeyHolders: () => passkeyHolders(new PasskeyStore(workerRedis, prefix), now()),
      commitments: (record) => cardCommitments({ store: ports.store, service: ports.service, log: b.log }, record),
      // The series is read once more, whole (its runs' marks are fields the card's record leaves out).
      seriesNext: async (record) => (await viewOf({ store: ports.store, now, series: seriesStore }, record))?.next[0],
    }),
    approvalsChannel: config.approvalsChannel,
    // The start is on a replica (WAIT 1) before any call, when Redis has replicas.
    durable: durableStart(workerRedis, { waitMs: config.redis.waitMs, key: `${prefix}:exec:executing`, log: b.log }),
    // Balance history for the charts, one snapshot per period across every worker.
    snapshots: {
      history: new BalanceHistory(workerRedis, prefix),
      wallets: config.wallets,
      everyMs: config.reports.snapshotEveryMs,
    },
    weekly: weeklyReport(b, workerRedis, store),
    series: {
      config,
      approvers: ports.approvers,
      series: seriesStore,
      // Each run re-reads its series' API key and asks whether its requester is still active.
      apiKeys: new ApiKeyStore(workerRedis, prefix),
      people: new SlackOwnerDirectory(slackClient, undefined, now),
      screeningService: ports.screeningService,
    },
    reminders: {
      approvers: ports.approvers,
      escalateTo: slackDirectory(b, config.controls.escalateTo),
      reminderAfterMs: config.controls.reminderAfterMs,
      reminderMax: config.controls.reminderMax,
    },
  });
  const { takesWakes = true, ...timings } = options;
  const workers = startWorkers({
    app,
    log: b.log,
    now,
    redis: workerRedis,
    prefix,
    ...timings,
    wakeList: takesWakes ? store.keys.wake : undefined,
    name,
  });
  return { workers, queues: ports.queues, heartbeat };
}

/** REPORT_CHANNEL + REPORT_AT, posted once a week across every worker. */
function weeklyReport(b: Built, redis: RedisClient, store: RequestStore): WeeklyReportDeps | undefined {
  const { at, channel } = b.config.reports;
  if (!at || !channel) return undefined;
  const marks = new ReportMarks(redis, b.config.redis.prefix);
  const poster = slackReportPoster({ client: b.slackClient, log: b.log });
  return {
    at,
    channel,
    rules: b.config.controls.velocity,
    store,
    poster,
    claim: (runAt) => marks.claimWeekly(runAt),
    release: (runAt) => marks.releaseWeekly(runAt),
  };
}
