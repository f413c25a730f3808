/**
 * Builds and starts Rampart from a Config: Redis, the service client (or the in-process
 * sandbox), the store, queues, the Bolt app (web role) and the workers (worker role).
 * main.ts calls it for production; tests call it the same way with loopback servers.
 */
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { createQueues } from './queue/queues.js';
import { startWorkers, type Workers } from './queue/worker.js';
import type { Sandbox } from './sandbox/index.js';
import { connectService } from './service/connect.js';
import { createSlackApp, type SlackApp, slackClientOptions } from './slack/app.js';
import { SlackApproverDirectory } from './slack/approvers.js';
import type { Deps } from './slack/deps.js';
import { Registry } from './store/registry.js';
import { RequestStore } from './store/requests.js';

export interface RampartOptions {
  now?: () => number;
  /** Worker timings for tests (see WorkerDeps). */
  worker?: { lockDurationMs?: number; stalledIntervalMs?: number; reconcileEveryMs?: number; name?: string };
}

export interface Running {
  deps: Deps;
  sandbox: Sandbox | undefined;
  workers: Workers | undefined;
  slack: SlackApp | undefined;
  /** Port the Slack receiver listens on (web role). */
  port: number | undefined;
  redis: Redis;
  /** Stops receiving, lets running jobs finish, then closes queues, HTTP agents and Redis. */
  close(): Promise<void>;
}

export async function startRampart(config: Config, log: Logger, options: RampartOptions = {}): Promise<Running> {
  const now = options.now ?? Date.now;
  // BullMQ needs maxRetriesPerRequest null on connections used by workers.
  const redis = new Redis(config.redis.url, { maxRetriesPerRequest: null, lazyConnect: true });
  await redis.connect();

  const connection = await connectService(config, log);
  const { service, sandbox } = connection;
  if (sandbox) {
    log.warn('SERVICE_BASE_URL is not set: running against the built-in sandbox (no real money)');
    log.debug({ url: sandbox.url }, 'sandbox listening');
  }
  const store = new RequestStore(redis, config.redis.prefix, now);
  const registry = new Registry(redis, config.redis.prefix);
  const queues = createQueues(redis, config.redis.prefix);
  const slackClient = new WebClient(config.slack.botToken, slackClientOptions(config.slack.apiUrl));
  const deps: Deps = {
    config,
    service,
    store,
    queues,
    approvers: new SlackApproverDirectory(config.approvers, slackClient, config.approverCacheMs, now),
    identityCreators: new SlackApproverDirectory(config.identityCreators, slackClient, config.approverCacheMs, now),
    registry,
    log,
    now,
    sandbox: sandbox !== undefined,
  };

  let workers: Workers | undefined;
  if (config.role !== 'web') {
    workers = startWorkers({
      redis,
      prefix: config.redis.prefix,
      service,
      store,
      registry,
      queues,
      slack: slackClient,
      log,
      approvalsChannel: config.approvalsChannel,
      sandbox: sandbox !== undefined,
      now,
      ...options.worker,
    });
  }
  let slack: SlackApp | undefined;
  let port: number | undefined;
  if (config.role !== 'worker') {
    slack = createSlackApp(deps, redis);
    port = await slack.start();
    log.info({ port, mode: config.slack.appToken ? 'socket' : 'http' }, 'Rampart is listening for Slack');
  }

  return {
    deps,
    sandbox,
    workers,
    slack,
    port,
    redis,
    async close() {
      await slack?.stop();
      await workers?.close();
      await queues.close();
      await connection.close();
      await redis.quit();
    },
  };
}
