/**
 * The shared limiter on a real Redis: paced by the rate, a burst after a quiet spell, and one
 * budget for every process holding the same key (two connections here).
 */
import { describe, expect, it } from 'vitest';
import { parseRate, type Rate } from '../../src/domain/rate.js';
import { RateLimiter } from '../../src/store/rate-limiter.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis: a, prefix, another } = useRedisPrefix('rate');
const b = another();

const rate = (text: string): Rate => {
  const r = parseRate(text);
  if (typeof r !== 'object') throw new Error(`bad rate ${text}`);
  return r;
};

describe('RateLimiter', () => {
  it('admits one try per interval and says how long to wait otherwise', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(a, `${prefix}:paced`, rate('5/s'), () => now);
    expect(await limiter.admit()).toBe(0);
    expect(await limiter.admit()).toBe(200);
    now += 199;
    expect(await limiter.admit()).toBe(1);
    now += 1;
    expect(await limiter.admit()).toBe(0);
  });

  it('lets a burst through after a quiet spell, then paces', async () => {
    let now = 5_000_000;
    const limiter = new RateLimiter(a, `${prefix}:burst`, rate('2/s burst 10'), () => now);
    const first = await Promise.all(Array.from({ length: 11 }, () => limiter.admit()));
    expect(first.filter((w) => w === 0)).toHaveLength(10);
    expect(first.filter((w) => w > 0)).toEqual([500]);
    now += 500;
    expect(await limiter.admit()).toBe(0);
  });

  it('is one budget across processes, on Redis time', async () => {
    const key = `${prefix}:shared`;
    const one = new RateLimiter(a, key, rate('1/h'));
    const two = new RateLimiter(b, key, rate('1/h'));
    const waits = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).admit()));
    expect(waits.filter((w) => w === 0)).toHaveLength(1);
    expect(waits.every((w) => w === 0 || w > 3_500_000)).toBe(true);
  });

  it('admits everything when the rate is off', async () => {
    const limiter = new RateLimiter(a, `${prefix}:off`, undefined);
    expect(await Promise.all([limiter.admit(), limiter.admit(), limiter.admit()])).toEqual([0, 0, 0]);
  });
});
