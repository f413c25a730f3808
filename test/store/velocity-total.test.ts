/**
 * The velocity ledger keeps a running total beside its amounts, and the VOTE script reads a
 * window's sum from it and from the smaller side of the window's edge. Over a seeded random run
 * of every change the scripts make (a reservation at the quorum, a row re-stamped when it ran, a
 * row given back, a failed request released, and an entry added or removed by a process of the
 * previous version, which keeps no total), the total stays the exact sum of the entries, and
 * the script's `used` for windows on both sides of the entries is the exact sum a direct read
 * gives, the request's own entry left out. Amounts near a 1e15 cap stay exact to the unit.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { luaInclude } from '../../src/store/lua-scripts.js';
import { TOTAL_FIELD, VELOCITY_LUA } from '../../src/store/velocity-lua.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { seeded } from '../support/seeded.js';

const prefix = `test-velocity-total-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
afterAll(async () => {
  await deleteKeys(prefix);
  await redis.quit();
});

const HOUR = 3_600_000;
const NOW = 1_800_000_000_000;

/** One ledger per case: `<prefix>:velocity:<case>:USDC`, as velocityCheck builds it. */
let cases = 0;
function ledgerOf() {
  const walletId = `wal_${++cases}`;
  const ledger = `${prefix}:velocity:${walletId}:USDC`;
  return { walletId, ledger, amounts: `${ledger}:amounts` };
}

const subject = (walletId: string, units: bigint) =>
  JSON.stringify({ walletId, walletAlias: 'ops', code: 'USDC', decimals: 6, units: units.toString() });

/**
 * velocityCheck for request `id` against one rule `limit`/`windowMs`: [refusal or 'ok', used].
 * A limit of -1 refuses every request, so the answer always carries what the window holds.
 */
const CHECK = `${VELOCITY_LUA}
local r = velocityCheck('', ARGV[1], tonumber(ARGV[2]), 3)
return { r.refused or 'ok', r.used or '' }`;
async function check(
  walletId: string,
  id: string,
  units: bigint,
  limit: string,
  windowMs: number,
  retention = 720 * HOUR,
) {
  const args = [id, String(NOW), `${prefix}:velocity:`, String(retention), subject(walletId, units)];
  return (await redis.eval(CHECK, 0, ...args, 'ops', 'USDC', limit, String(windowMs))) as [string, string];
}

/** Runs one of the ledger changes the product scripts make, by the product's own Lua functions. */
const CHANGE = `${luaInclude('batch')}
local op, ledger, amounts = ARGV[1], KEYS[1], KEYS[2]
if op == 'reserve' then ledgerPut(ledger, amounts, ARGV[2], ARGV[3], ARGV[4])
elseif op == 'restamp' then restampRow(ledger, amounts, ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]))
elseif op == 'give-back' then giveBack(amounts, KEYS[3], ARGV[2], ARGV[3], tonumber(ARGV[4]), ledger)
elseif op == 'give-back-no-ledger' then giveBack(amounts, KEYS[3], ARGV[2], ARGV[3], tonumber(ARGV[4]), nil)
elseif op == 'release' then ledgerDrop(ledger, amounts, ARGV[2])
-- What a process of the previous version writes during a rolling deploy: no total kept.
elseif op == 'old-reserve' then
  redis.call('ZADD', ledger, ARGV[3], ARGV[2])
  redis.call('HSET', amounts, ARGV[2], ARGV[4])
elseif op == 'old-release' then
  redis.call('ZREM', ledger, ARGV[2])
  redis.call('HDEL', amounts, ARGV[2])
end
return 1`;

/** The ledger read directly, in exact integers: entry scores (+inf as Infinity) and amounts. */
async function entries(ledger: string, amounts: string) {
  const rows = await redis.zrange(ledger, '0', '-1', 'WITHSCORES');
  const held = await redis.hgetall(amounts);
  const out: { id: string; at: number; units: bigint }[] = [];
  for (let i = 0; i + 1 < rows.length; i += 2) {
    const id = rows[i] as string;
    const score = rows[i + 1] as string;
    out.push({ id, at: score === 'inf' ? Number.POSITIVE_INFINITY : Number(score), units: BigInt(held[id] ?? '0') });
  }
  return { out, total: held[TOTAL_FIELD] };
}

it('keeps the total exact through every change, and each window sums exactly as a direct read does', async () => {
  for (const seed of [1, 2, 3]) {
    const rnd = seeded(seed);
    const { walletId, ledger, amounts } = ledgerOf();
    const given = `${ledger}:given`;
    // Entries written before the total existed: the first check sums them once.
    for (let k = 0; k < 8; k++) {
      await redis.zadd(ledger, NOW - (k + 1) * 5 * HOUR, `R-old${k}`);
      await redis.hset(amounts, `R-old${k}`, String(1_000 + k));
    }
    const batches: { id: string; rows: number; units: number }[] = [];
    let next = 0;
    for (let step = 0; step < 120; step++) {
      const op = rnd(8);
      const change = (...argv: string[]) => redis.eval(CHANGE, 3, ledger, amounts, given, ...argv);
      if (op === 0) await change('reserve', `R-${++next}`, String(NOW - rnd(300) * HOUR), String(1 + rnd(10_000)));
      else if (op === 1) {
        const b = { id: `B-${++next}`, rows: 4, units: 1 + rnd(5_000) };
        batches.push(b);
        await change('reserve', b.id, '+inf', String(b.units * b.rows));
      } else if (op === 2 && batches.length > 0) {
        const b = batches[rnd(batches.length)] as (typeof batches)[number];
        const at = NOW - rnd(60) * HOUR;
        await change('restamp', b.id, `${b.id}.${1 + rnd(b.rows)}`, String(b.units), String(at));
      } else if (op === 3 && batches.length > 0) {
        const b = batches[rnd(batches.length)] as (typeof batches)[number];
        const how = rnd(2) === 0 ? 'give-back' : 'give-back-no-ledger';
        await change(how, b.id, `${b.id}.${1 + rnd(b.rows)}`, String(b.units));
      } else if (op === 4 && next > 0) await change('release', `R-${1 + rnd(next)}`);
      else if (op === 6)
        await change('old-reserve', `R-${++next}`, String(NOW - rnd(300) * HOUR), String(1 + rnd(10_000)));
      else if (op === 7 && next > 0) await change('old-release', `R-${1 + rnd(next)}`);
      // A request's own entry (held at +inf or started) never counts against itself.
      const pick = rnd(6);
      const own =
        pick === 0 && next > 0
          ? `R-${1 + rnd(next)}`
          : pick === 1 && batches.length > 0
            ? (batches[0]?.id ?? '')
            : 'R-none';
      const windowMs = [HOUR, 6 * HOUR, 24 * HOUR, 200 * HOUR][rnd(4)] as number;
      // Retention 250 h: entries re-stamped further back leave the ledger in the check itself.
      const [refused, used] = await check(walletId, own, 1n, '-1', windowMs, 250 * HOUR);
      const { out, total } = await entries(ledger, amounts);
      const expected = out.filter((e) => e.id !== own && e.at > NOW - windowMs).reduce((sum, e) => sum + e.units, 0n);
      const facts = `seed ${seed}, step ${step}, op ${op}, window ${windowMs / HOUR} h`;
      expect(refused, facts).toBe('over_limit');
      expect(used, facts).toBe(expected.toString());
      expect(total, facts).toBe(out.reduce((sum, e) => sum + e.units, 0n).toString());
    }
  }
});

it('a sum near a 1e15 cap is exact to the unit, from inside the window and from the total', async () => {
  const cap = 999_999_999_999_999n;
  const third = 333_333_333_333_333n;
  // Window sides: two entries inside and five before the edge (the script sums the inside), and
  // five inside and one before (the script takes the total less the one before).
  for (const [inside, before] of [
    [2, 5],
    [5, 1],
  ] as const) {
    const { walletId, ledger, amounts } = ledgerOf();
    const parts = Array.from(
      { length: inside },
      (_, k) => third / BigInt(inside) + (k === 0 ? third % BigInt(inside) : 0n),
    );
    const held = [...parts, ...parts].reduce((a, b) => a + b, 0n);
    for (const [k, units] of [...parts, ...parts].entries()) {
      await redis.zadd(ledger, String(NOW - 1_000 - k), `R-in${k}`);
      await redis.hset(amounts, `R-in${k}`, units.toString());
    }
    for (let k = 0; k < before; k++) {
      await redis.zadd(ledger, String(NOW - 30 * HOUR - k), `R-out${k}`);
      await redis.hset(amounts, `R-out${k}`, '999999999999990');
    }
    expect(held).toBe(2n * third);
    const fits = cap - held;
    const at = (units: bigint) => check(walletId, 'R-new', units, cap.toString(), 24 * HOUR);
    expect(await at(fits)).toEqual(['ok', '']);
    expect(await at(fits + 1n)).toEqual(['over_limit', held.toString()]);
  }
});
