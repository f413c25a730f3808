/**
 * A Redis connection and a key prefix of the file's own, for integration tests that use a store
 * directly: at the end of the file the connection closes and every key under the prefix goes.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { deleteKeys, REDIS_URL } from './harness.js';

export interface RedisPrefix {
  redis: Redis;
  prefix: string;
  /** One more connection, closed with the first: a second process on the same keys. */
  another(): Redis;
}

export function useRedisPrefix(name: string): RedisPrefix {
  const prefix = `test-${name}-${randomUUID().slice(0, 8)}`;
  const connections = [new Redis(REDIS_URL)];
  afterAll(async () => {
    for (const c of connections) await c.quit();
    await deleteKeys(prefix);
  });
  const another = (): Redis => {
    const c = new Redis(REDIS_URL);
    connections.push(c);
    return c;
  };
  return { redis: connections[0] as Redis, prefix, another };
}
