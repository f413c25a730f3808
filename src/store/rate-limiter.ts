/**
 * A rate limiter shared by every process (all batch rows together at most BATCH_RATE
 * per second; BullMQ's per-group limits are a paid add-on). GCRA over one key, in one Lua
 * script, on Redis's own clock: no process's clock matters, and one key holds on a Redis Cluster.
 * It only says when a try may go; whether an execution may start is still decided by its own
 * compare-and-set (DESIGN "States, ids and hashes").
 */

import type { Rate } from '../domain/rate.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';

/**
 * KEYS: the limiter's theoretical-arrival-time key. ARGV: interval ms, burst, now ms ('' = Redis
 * TIME). Returns 0 when admitted (and records it), else the milliseconds to wait.
 */
const ADMIT = `
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat - tolerance > now then return math.ceil(tat - tolerance - now) end
redis.call('SET', KEYS[1], string.format('%.0f', tat + interval), 'PX', math.ceil(tolerance + interval) + 1000)
return 0
`;

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
