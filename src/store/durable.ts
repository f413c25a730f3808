/**
 * Exactly-once rests on the `queued → executing`
 * compare-and-set surviving. With replicas, a failover can lose an acknowledged write, so after
 * the start and before the call a worker sends `WAIT 1 <REDIS_WAIT_MS>` on the connection that
 * wrote it (WAIT counts that client's own writes). No acknowledgement: the call is not made.
 *
 * "Has replicas" comes from INFO replication's connected_slaves (one server) or the slot's
 * replicas in the cluster map (Redis Cluster), cached briefly and refreshed in the background so
 * a Redis without replicas adds no round trip to the approve path.
 */
import { Cluster, type Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { RedisClient } from './redis.js';

export interface DurableOptions {
  /** REDIS_WAIT_MS. */
  waitMs: number;
  /** A key the execution scripts write (its slot's master is where WAIT must go on a cluster). */
  key: string;
  log: Logger;
  /** How long a replica count is trusted before it is read again. */
  cacheMs?: number;
  now?: () => number;
}

const CACHE_MS = 5_000;

/** The node that holds `key`'s slot, and how many replicas it has in the cluster map. */
async function clusterTarget(cluster: Cluster, key: string): Promise<{ node: Redis; replicas: number } | undefined> {
  const slot = Number(await cluster.call('CLUSTER', 'KEYSLOT', key));
  const owners = cluster.slots[slot] ?? [];
  const master = owners[0];
  const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === master);
  return node ? { node, replicas: owners.length - 1 } : undefined;
}

async function replicaCount(redis: RedisClient, key: string): Promise<{ node: Redis; replicas: number } | undefined> {
  if (redis instanceof Cluster) return clusterTarget(redis, key);
  const info = await redis.info('replication');
  const replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? '0');
  return { node: redis, replicas };
}

/**
 * Returns the `durable` hook of app/execute-one.ts: true when no replica exists (nothing to wait
 * for) or one acknowledged; false when none did in time, or Redis could not be asked (the
 * execution then goes back to queued, never sent).
 */
export function durableStart(redis: RedisClient, options: DurableOptions): () => Promise<boolean> {
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? CACHE_MS;
  let known: { node: Redis; replicas: number; at: number } | undefined;
  let refreshing: Promise<void> | undefined;
  const refresh = () => {
    refreshing ??= replicaCount(redis, options.key)
      .then((t) => {
        known = t ? { ...t, at: now() } : undefined;
      })
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  // Read once at start-up, so the first approval does not wait for it either.
  refresh().catch((err: unknown) => options.log.warn({ err }, 'could not read Redis replication yet'));
  return async () => {
    try {
      if (!known) await refresh();
      else if (now() - known.at > cacheMs)
        refresh().catch((err: unknown) => options.log.warn({ err }, 'could not read Redis replication; kept the last'));
      if (!known) return false;
      if (known.replicas === 0) return true;
      const acked = Number(await known.node.call('WAIT', '1', String(options.waitMs)));
      if (acked < 1) options.log.warn({ waitMs: options.waitMs }, 'no Redis replica acknowledged within REDIS_WAIT_MS');
      return acked >= 1;
    } catch (err) {
      options.log.warn({ err }, 'could not confirm the start on a Redis replica; not sending');
      return false;
    }
  };
}
