/**
 * The headroom people see (ControlStore.usage) reads each window as the vote does: from the
 * smaller side of its edge and the ledger's running total. Over seeded ledgers with entries on
 * both sides of every window's edge, on the edge itself, and reservations not yet started (+inf),
 * it gives for every rule exactly what reading every entry gives: with the total kept, with none
 * (a ledger written by an older version), with a count that is not the ledger's own, and with
 * sums past 2^53. A busy wallet's ledger is never read whole, and a side found empty not at all.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import type { VelocityRule, VelocitySubject } from '../../src/domain/velocity.js';
import { ControlStore } from '../../src/store/controls.js';
import { luaInclude } from '../../src/store/lua-scripts.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { seeded } from '../support/seeded.js';

const prefix = `test-velocity-usage-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const controls = new ControlStore(redis, prefix);
afterAll(async () => {
  await deleteKeys(prefix);
  await redis.quit();
});

/** The commands other clients sent while `work` ran, as MONITOR reports them (`keep` filters). */
async function seenWhile(keep: (args: string[]) => boolean, work: () => Promise<unknown>): Promise<string[][]> {
  // monitor() opens a connection of its own, which disconnect() closes; `redis` stays as it was.
  const monitor = await redis.monitor();
  const seen: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (keep(args)) seen.push(args);
  });
  try {
    await work();
    await redis.ping();
    // MONITOR reports asynchronously: the command after ours is seen once ours was.
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    monitor.disconnect();
  }
  return seen;
}

const HOUR = 3_600_000;
const NOW = 1_800_000_000_000;
const WINDOWS = [HOUR, 24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR];
const rules: VelocityRule[] = WINDOWS.map((windowMs) => ({
  wallet: 'ops',
  code: 'USDC',
  limit: 10n ** 15n,
  decimals: 6,
  windowMs,
  windowLabel: `${windowMs / HOUR} h`,
  text: `ops:USDC=1000000000/${windowMs / HOUR}h`,
}));

let cases = 0;
function subjectOf(): VelocitySubject {
  return { walletId: `wal_${++cases}`, walletAlias: 'ops', code: 'USDC', decimals: 6, units: 1n };
}

/** An entry written by the product's own function, which keeps the total. */
const PUT = `${luaInclude('ledger')}
ledgerPut(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1`;

/** What every rule's window holds, every entry read, in exact integers. */
async function direct(subject: VelocitySubject): Promise<bigint[]> {
  const rows = await redis.zrange(controls.ledgerKey(subject), '0', '-1', 'WITHSCORES');
  const held = await redis.hgetall(controls.amountsKey(subject));
  return WINDOWS.map((w) => {
    let used = 0n;
    for (let i = 0; i + 1 < rows.length; i += 2) {
      const score = rows[i + 1] as string;
      const at = score === 'inf' ? Number.POSITIVE_INFINITY : Number(score);
      if (at > NOW - w) used += BigInt(held[rows[i] as string] ?? '0');
    }
    return used;
  });
}

/** Entries around every edge (one ms either side and on it), older ones, and +inf reservations. */
async function seed(subject: VelocitySubject, rnd: (n: number) => number, count: number, big = false) {
  const ledger = controls.ledgerKey(subject);
  const amounts = controls.amountsKey(subject);
  await redis.hset(amounts, '#total', '0', '#count', '0');
  for (let k = 0; k < count; k++) {
    const pick = rnd(10);
    const edge = NOW - (WINDOWS[rnd(WINDOWS.length)] as number);
    const score =
      pick < 2 ? '+inf' : pick < 5 ? String(edge + rnd(3) - 1) : String(NOW - rnd(40 * 24) * HOUR - rnd(HOUR));
    const units = big ? (4_000_000_000_000_000n + BigInt(rnd(1_000_000))).toString() : String(1 + rnd(1_000_000));
    await redis.eval(PUT, 2, ledger, amounts, `R-${k}`, score, units);
  }
}

const usage = async (subject: VelocitySubject) => (await controls.usage(subject, rules, NOW)).map((u) => u.used);

it('every rule reads as every entry does: total kept, none kept, a count not its own, past 2^53', async () => {
  for (const s of [1, 2, 3, 4, 5]) {
    const rnd = seeded(s);
    const subject = subjectOf();
    await seed(subject, rnd, 40 + rnd(80));
    const expected = await direct(subject);
    expect(expected.some((u) => u > 0n)).toBe(true);
    expect(await usage(subject), `seed ${s}, total kept`).toEqual(expected);

    // An entry added by a process of the previous version: the count is not the ledger's own.
    await redis.zadd(controls.ledgerKey(subject), String(NOW - 1_000), 'R-old');
    await redis.hset(controls.amountsKey(subject), 'R-old', '77');
    const withOld = await direct(subject);
    expect(withOld).not.toEqual(expected);
    expect(await usage(subject), `seed ${s}, count not its own`).toEqual(withOld);

    // A ledger written before the total existed.
    await redis.hdel(controls.amountsKey(subject), '#total', '#count');
    expect(await usage(subject), `seed ${s}, no total`).toEqual(withOld);
  }
  const subject = subjectOf();
  await seed(subject, seeded(9), 30, true);
  const expected = await direct(subject);
  expect(expected.some((u) => u > 2n ** 53n)).toBe(true);
  expect(await usage(subject), 'sums past 2^53').toEqual(expected);
});

it('a busy wallet: the read follows the smaller side of each edge, never the whole ledger', async () => {
  const subject = subjectOf();
  const ledger = controls.ledgerKey(subject);
  const amounts = controls.amountsKey(subject);
  await redis.hset(amounts, '#total', '0', '#count', '0');
  // 600 entries inside every window (+inf reservations and runs of the last half hour), 3 older.
  const put = redis.pipeline();
  for (let k = 0; k < 600; k++)
    put.eval(PUT, 2, ledger, amounts, `R-${k}`, k % 2 ? '+inf' : String(NOW - 60_000 - k), String(1_000 + k));
  for (let k = 0; k < 3; k++) put.eval(PUT, 2, ledger, amounts, `R-old${k}`, String(NOW - 31 * 24 * HOUR), '5');
  await put.exec();

  let used: bigint[] = [];
  const hmgets = await seenWhile(
    (args) => args[1] === amounts && /^hmget$/i.test(args[0] ?? ''),
    async () => {
      used = await usage(subject);
    },
  );
  const widest = hmgets.map((args) => args.length - 2);
  expect(used).toEqual(await direct(subject));
  expect(widest.length).toBeGreaterThan(0);
  expect(Math.max(...widest)).toBeLessThanOrEqual(3);
});

it('a window whose smaller side is empty costs its ZCOUNT alone, as in the vote', async () => {
  const subject = subjectOf();
  const ledger = controls.ledgerKey(subject);
  const amounts = controls.amountsKey(subject);
  await redis.hset(amounts, '#total', '0', '#count', '0');
  // Every entry is recent: nothing before any window's edge, so each reads total less nothing.
  for (let k = 0; k < 3; k++) await redis.eval(PUT, 2, ledger, amounts, `R-${k}`, String(NOW - 60_000 - k), '10');

  let used: bigint[] = [];
  const ranges = await seenWhile(
    (args) => args[1] === ledger && /^zrangebyscore$/i.test(args[0] ?? ''),
    async () => {
      used = await usage(subject);
    },
  );
  expect(used).toEqual(WINDOWS.map(() => 30n));
  expect(ranges).toEqual([]);
});
