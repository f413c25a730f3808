/**
 * The one place Redis connections are built: a single server from REDIS_URL, or a
 * Redis Cluster from REDIS_CLUSTER_NODES with REDIS_URL's credentials and TLS. Each use gets
 * its own connection with its own temper:
 * - `requests` (Slack handling, /healthz): fails fast — no offline queue, no resent commands,
 *   a command time-out well under Slack's 3 s — and keeps reconnecting in the background;
 * - `workers` (BullMQ workers, reconciler): patient, `maxRetriesPerRequest: null` as BullMQ's
 *   going-to-production guide asks;
 * - `cli`: fails at once, no reconnecting: an operator is waiting.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { RedisUnavailableError } from './redis-errors.js';

export type { RedisClient } from '../redis-client.js';

import type { RedisClient } from '../redis-client.js';
export type ConnectionUse = 'requests' | 'workers' | 'cli';
type RedisSettings = Config['redis'];
/** ioredis's own type allows `replyMapping: undefined`, its constructors do not. */
type NodeOptions = Omit<RedisOptions, 'replyMapping'>;

/** Well under Slack's 3 s: one stalled command fails in time for the ack. */
export const REQUEST_COMMAND_TIMEOUT_MS = 1000;
const START_TIMEOUT_MS = 5000;

/** user, password and TLS from REDIS_URL; a cluster's nodes take the same credentials. */
function credentials(url: string): Pick<NodeOptions, 'username' | 'password' | 'tls'> {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

const reconnectAfter = (capMs: number) => (times: number) => Math.min(times * 100, capMs);

function perUse(use: ConnectionUse): NodeOptions {
  switch (use) {
    case 'requests':
      return {
        enableOfflineQueue: false,
        // A command that may have reached Redis is never sent twice behind the person's back.
        autoResendUnfulfilledCommands: false,
        maxRetriesPerRequest: 1,
        commandTimeout: REQUEST_COMMAND_TIMEOUT_MS,
        connectTimeout: 2000,
        retryStrategy: reconnectAfter(1000),
      };
    case 'workers':
      return { maxRetriesPerRequest: null, connectTimeout: 10_000, retryStrategy: reconnectAfter(2000) };
    case 'cli':
      return {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 5000,
        connectTimeout: 3000,
        retryStrategy: () => null,
      };
  }
}

/** Builds a connection without connecting it (lazyConnect); openRedis connects and checks. */
export function createRedis(settings: RedisSettings, use: ConnectionUse): RedisClient {
  const { enableOfflineQueue, retryStrategy, ...nodeOptions } = perUse(use);
  if (!settings.clusterNodes) {
    return new Redis(settings.url, { ...perUse(use), lazyConnect: true });
  }
  return new Cluster(
    settings.clusterNodes.map((n) => ({ host: n.host, port: n.port })),
    {
      lazyConnect: true,
      enableOfflineQueue: enableOfflineQueue ?? true,
      clusterRetryStrategy: use === 'cli' ? () => null : (retryStrategy ?? null),
      // Reconnect a node that restarts with the same slots instead of waiting for a MOVED.
      ...(use === 'cli' ? {} : { clusterNodeRetryStrategy: reconnectAfter(2000) }),
      slotsRefreshTimeout: 2000,
      redisOptions: { ...nodeOptions, ...credentials(settings.url) },
    },
  );
}

/** host:port of what the settings point at, never a password. */
export function redisWhere(settings: RedisSettings): string {
  if (settings.clusterNodes)
    return `the Redis Cluster at ${settings.clusterNodes.map((n) => `${n.host}:${n.port}`).join(', ')}`;
  try {
    const u = new URL(settings.url);
    return `Redis at ${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'Redis at REDIS_URL';
  }
}

const settingName = (settings: RedisSettings) => (settings.clusterNodes ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL');

/**
 * Connects, and for a cluster checks `CLUSTER INFO` says `cluster_state:ok`. Throws
 * RedisUnavailableError with one sentence (start-up refuses a cluster that cannot work).
 */
export async function openRedis(settings: RedisSettings, use: ConnectionUse, log?: Logger): Promise<RedisClient> {
  if (settings.clusterNodes) {
    const problem = await clusterProblem(settings);
    if (problem) throw new RedisUnavailableError(`${redisWhere(settings)} ${problem}.`);
  }
  const client = createRedis(settings, use);
  if (log) watchConnection(client, use, log);
  else client.on('error', () => {}); // reported once below, not as ioredis's "Unhandled error event"
  const fail = (why: string): RedisUnavailableError => {
    client.disconnect();
    return new RedisUnavailableError(`${redisWhere(settings)} ${why}; start it or correct ${settingName(settings)}.`);
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS);
  });
  try {
    const first = await Promise.race([client.connect().then(() => 'ok' as const), timeout]);
    if (first === 'timeout') throw fail(`did not answer within ${START_TIMEOUT_MS / 1000} s`);
  } catch (err) {
    if (err instanceof RedisUnavailableError) throw err;
    const code = (err as { code?: unknown }).code;
    throw fail(`cannot be reached${typeof code === 'string' ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * Asks the startup nodes themselves (the Cluster client would only retry its ready check
 * forever): the first that answers must say `cluster_state:ok`. undefined when all is well,
 * otherwise why not.
 */
async function clusterProblem(settings: RedisSettings): Promise<string | undefined> {
  let unreachable = 'cannot be reached';
  // Each node alone, as the operator listed them.
  for (const node of settings.clusterNodes ?? []) {
    const probe = new Redis({
      host: node.host,
      port: node.port,
      ...perUse('cli'),
      ...credentials(settings.url),
      lazyConnect: true,
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string') unreachable = `cannot be reached (${code})`;
      probe.disconnect();
      continue;
    }
    try {
      const info = String(await probe.cluster('INFO'));
      const state = /cluster_state:(\w+)/.exec(info)?.[1];
      return state === 'ok'
        ? undefined
        : `reports cluster_state ${state ?? 'unknown'} instead of ok; bring every slot's master up, or correct REDIS_CLUSTER_NODES`;
    } catch {
      return 'is not a Redis Cluster (cluster support is disabled on it); unset REDIS_CLUSTER_NODES to use REDIS_URL as one server';
    } finally {
      await closeRedis(probe);
    }
  }
  return `${unreachable}; start it or correct REDIS_CLUSTER_NODES`;
}

/**
 * Every connection gets an error listener logging under `err` (BullMQ's production guide): the
 * first error of an outage at warn, then one line when the connection is back.
 */
export function watchConnection(client: RedisClient, use: ConnectionUse, log: Logger): void {
  let down = false;
  client.on('error', (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err, redis: use }, 'Redis connection failed; retrying in the background');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: use }, 'Redis connection restored');
  });
}

/** Closes politely when connected, otherwise drops the connection at once. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.status === 'ready' || client.status === 'connect') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
