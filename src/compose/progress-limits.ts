/**
 * A batch's progress message's throttles (app/notices/batch-progress.ts), as GCRA keys in Redis
 * shared by every process: one slot under the hash-tagged prefix (store/rate-limiter.ts).
 */
import { PROGRESS_EVERY_MS, PROGRESS_PER_MINUTE, type ProgressLimits } from '../app/notices/batch-progress.js';
import { RateLimiter } from '../store/rate-limiter.js';
import type { RedisClient } from '../store/redis.js';

export function progressLimits(redis: RedisClient, prefix: string): ProgressLimits {
  const all = new RateLimiter(redis, `${prefix}:batch:progress`, {
    intervalMs: 60_000 / PROGRESS_PER_MINUTE,
    burst: 1,
    text: `${PROGRESS_PER_MINUTE}/m`,
  });
  const every = { intervalMs: PROGRESS_EVERY_MS, burst: 1, text: '1 every 3 s' };
  return {
    batch: (id) => new RateLimiter(redis, `${prefix}:batch:${id}:progress`, every).admit(),
    all: () => all.admit(),
  };
}
