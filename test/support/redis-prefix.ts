/**
 * A Redis connection and a key prefix of the file's own, for integration tests that use a store
 * directly: at the end of the file the connection closes and every key under the prefix goes.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { deleteKeys, REDIS_URL } from './harness.js';

export function useRedisPrefix(name: string): { redis: Redis; prefix: string } {
  const prefix = `test-${name}-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL);
  afterAll(async () => {
    await redis.quit();
    await deleteKeys(prefix);
  });
  return { redis, prefix };
}
