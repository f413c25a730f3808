/**
 * The VOTE script picks a request's velocity rules itself; domain/velocity.ts rulesFor stays the
 * definition. Over a grid of rule lists, wallet aliases and asset codes, the script's pick (as
 * indexes into the configured list) is exactly rulesFor's.
 */
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { rulesFor, type VelocityRule } from '../../src/domain/velocity.js';
import { ruleArgs, VELOCITY_LUA } from '../../src/store/velocity-lua.js';
import { REDIS_URL } from '../support/harness.js';

const redis = new Redis(REDIS_URL);
afterAll(() => redis.quit());

const rule = (wallet: string, code: string, windowMs: number, limit: bigint): VelocityRule => ({
  wallet,
  code,
  limit,
  decimals: 6,
  windowMs,
  windowLabel: `${windowMs} ms`,
  text: `${wallet}:${code}=${limit}/${windowMs}`,
});

const POOL: VelocityRule[] = [
  rule('ops', 'USDC', 86_400_000, 100n),
  rule('*', 'USDC', 86_400_000, 200n),
  rule('ops', 'USDC', 604_800_000, 300n),
  rule('treasury', 'CNGN', 86_400_000, 400n),
  rule('*', 'CNGN', 3_600_000, 500n),
  rule('*', 'USDT', 86_400_000, 600n),
  // A wallet without an alias is named by its id (velocitySubject), which a rule may not match.
  rule('wal_x', 'USDT', 86_400_000, 700n),
];
const ALIASES = ['ops', 'treasury', 'wal_x', 'payroll'];
const CODES = ['USDC', 'usdc', 'CNGN', 'USDT', 'EURC'];

/** The script's pick: velocityRules over the rules from ARGV[3], as 0-based indexes. */
const PICK = `${VELOCITY_LUA}
local out = {}
for _, r in ipairs(velocityRules(3, ARGV[1], ARGV[2])) do out[#out + 1] = tostring(r[1]) end
return out`;

it("picks each request's rules exactly as rulesFor does, over every subset of the rules", async () => {
  const cases: { rules: VelocityRule[]; alias: string; code: string }[] = [];
  for (let mask = 0; mask < 1 << POOL.length; mask++) {
    const rules = POOL.filter((_, i) => (mask >> i) & 1);
    for (const alias of ALIASES) for (const code of CODES) cases.push({ rules, alias, code });
  }
  const pipeline = redis.pipeline();
  for (const c of cases) pipeline.eval(PICK, 0, c.alias, c.code, ...ruleArgs(c.rules));
  const answers = (await pipeline.exec()) ?? [];
  const mismatches = cases.filter((c, i) => {
    const [err, picked] = answers[i] ?? [new Error('no answer'), []];
    if (err) throw err;
    const expected = rulesFor(c.rules, c.alias, c.code).map((r) => String(c.rules.indexOf(r)));
    return JSON.stringify(picked) !== JSON.stringify(expected);
  });
  expect(cases.length).toBe(128 * ALIASES.length * CODES.length);
  expect(mismatches).toEqual([]);
});
