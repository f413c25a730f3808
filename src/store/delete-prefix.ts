/** Deletes every key under `prefix:` (SCAN, never KEYS). For tests, benchmarks and the workbench. */
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './redis.js';

async function deleteOnNode(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    // One key per DEL (on a cluster, keys of different slots may not share a command), pipelined.
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.del(key);
    for (const [err, n] of (await pipeline.exec()) ?? []) if (!err) deleted += Number(n);
  } while (cursor !== '0');
  return deleted;
}

/** On a cluster SCAN sees one node at a time: every master is scanned. */
export async function deleteKeysWithPrefix(redis: RedisClient, prefix: string): Promise<number> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  let deleted = 0;
  for (const node of nodes) deleted += await deleteOnNode(node, prefix);
  return deleted;
}
