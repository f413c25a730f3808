/**
 * A rate limiter shared by every process (all batch rows together at most BATCH_RATE
 * per second; BullMQ's per-group limits are a paid add-on). GCRA over one key, in one Lua
 * script, on Redis's own clock: no process's clock matters, and one key holds on a Redis Cluster.
 * It only says when a try may go; whether an execution may start is still decided by its own
 * compare-and-set (DESIGN "States, ids and hashes").
 */

import type { Rate } from '../domain/rate.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';

/** GCRA on one key: 0 when admitted, else the ms to wait. */
const ADMIT = luaScript('rate-admit');

export class RateLimiter {
  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly rate: Rate | undefined,
    /** Tests pin the clock; production leaves it to Redis. */
    private readonly now?: () => number,
  ) {}

  /** 0 when this try may go now (and counts), else how many ms to wait before trying again. */
  async admit(): Promise<number> {
    if (!this.rate) return 0;
    const wait = await evalScript(
      this.redis,
      ADMIT,
      1,
      this.key,
      String(this.rate.intervalMs),
      String(this.rate.burst),
      this.now ? String(this.now()) : '',
    );
    return Number(wait);
  }
}
