/**
 * The snapshot job through real BullMQ workers — two Rampart worker processes on one
 * queue take one snapshot per period (one service read per wallet per period), and the chain of
 * delayed jobs keeps going by itself.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Running } from '../../src/rampart.js';
import { BalanceHistory } from '../../src/store/balance-history.js';
import { eventually, type Harness, startHarness } from '../support/harness.js';
import { countingBalanceReads } from '../support/seed-service.js';

let h: Harness;
let second: Running;
const { reads, decorate: counting } = countingBalanceReads();

beforeAll(async () => {
  h = await startHarness('snapshot-job', { SNAPSHOT_EVERY: '1s' }, { decorate: counting });
  second = await h.startAnother({ ROLE: 'worker' }, { decorate: counting });
});
afterAll(async () => {
  await h.close();
});

it('takes one snapshot per period across two workers, each period a service read per wallet', async () => {
  const history = new BalanceHistory(h.rampart.redis, h.rampart.deps.config.redis.prefix);
  const ops = 'wal_ops_7f3a';
  await eventually(
    async () => ((await history.since(ops, 0)).length >= 3 ? true : undefined),
    15_000,
    'three snapshots',
  );
  const wallets = h.rampart.deps.config.wallets;
  // Stop both workers (running jobs finish first), then compare what was read with what was stored.
  await Promise.all([h.rampart.workers?.close(), second.workers?.close()]);
  for (const w of wallets) {
    const stored = await history.since(w.id, 0);
    const periods = stored.map((s) => s.at);
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods.every((p) => p % 1000 === 0)).toBe(true);
    expect(reads.get(w.id) ?? 0).toBe(stored.length);
  }
});
