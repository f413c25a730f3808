/** Balance history on a real Redis: gaps stay gaps, 90 days and a cap hold, one claim per period. */
import { describe, expect, it } from 'vitest';
import { BalanceHistory, HISTORY_KEEP_MS } from '../../src/store/balance-history.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix, another } = useRedisPrefix('balhist');
const other = another();
const PERIOD = 15 * 60_000;
const T0 = Date.UTC(2026, 10, 1);

describe('BalanceHistory', () => {
  it('keeps a failed read as a gap, never as zero, and replaces a period written twice', async () => {
    const h = new BalanceHistory(redis, prefix);
    await h.record('wal_a', { at: T0, gap: false, available: { 'base:usdc': 120_000.5 } });
    await h.record('wal_a', { at: T0 + PERIOD, gap: true, why: 'service unavailable' });
    await h.record('wal_a', { at: T0 + 2 * PERIOD, gap: false, available: { 'base:usdc': 1 } });
    await h.record('wal_a', { at: T0 + 2 * PERIOD, gap: false, available: { 'base:usdc': 2 } });
    expect(await h.since('wal_a', T0)).toEqual([
      { at: T0, gap: false, available: { 'base:usdc': 120_000.5 } },
      { at: T0 + PERIOD, gap: true, why: 'service unavailable' },
      { at: T0 + 2 * PERIOD, gap: false, available: { 'base:usdc': 2 } },
    ]);
  });

  it('drops what is older than 90 days and keeps at most the cap', async () => {
    const h = new BalanceHistory(redis, prefix, 5);
    for (let i = 0; i < 8; i += 1) await h.record('wal_b', { at: T0 + i * PERIOD, gap: false, available: { x: i } });
    const kept = await h.since('wal_b', 0);
    expect(kept.map((s) => s.at)).toEqual([3, 4, 5, 6, 7].map((i) => T0 + i * PERIOD));
    await h.record('wal_b', { at: T0 + HISTORY_KEEP_MS + 4 * PERIOD, gap: true, why: 'x' });
    expect((await h.since('wal_b', 0)).map((s) => s.at)).toEqual(
      [4, 5, 6, 7].map((i) => T0 + i * PERIOD).concat(T0 + HISTORY_KEEP_MS + 4 * PERIOD),
    );
  });

  it('gives a period to exactly one of many workers', async () => {
    const a = new BalanceHistory(redis, prefix);
    const b = new BalanceHistory(other, prefix);
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claim(T0, PERIOD)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await a.claim(T0 + PERIOD, PERIOD)).toBe(true);
  });
});
