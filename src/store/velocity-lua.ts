/**
 * Velocity limits inside the VOTE script, so an Approve click reads nothing before its vote: the
 * request's subject (domain/velocity.ts velocitySubject) is stored on the approval at creation
 * (hash field `velocity`), every configured rule comes as ARGV, and the script picks the
 * request's own rules as domain/velocity.ts rulesFor does (test/store/velocity-lua.test.ts
 * compares the two over a grid). The ledger keys are built here from the key prefix, as
 * store/controls.ts ledgerKey does: under the hash-tagged prefix they share the approval's slot
 * on a Redis Cluster.
 */
import { type VelocityRule, type VelocitySubject, velocitySubject } from '../domain/velocity.js';

/** Stored for a request that moves no money (or an entire balance with none known): no ledger. */
export const NO_SUBJECT = 'none';

/**
 * The field for a request at its creation. A call velocitySubject cannot read (never sealed by
 * a door) gets '' and is treated as a record without the field, so the create never fails on it.
 */
export function createField(frozen: Parameters<typeof velocitySubject>[0]): string {
  try {
    return subjectField(velocitySubject(frozen));
  } catch {
    return '';
  }
}

/** The approval's `velocity` field: the subject as JSON (units as a string: exact), or NO_SUBJECT. */
export function subjectField(subject: VelocitySubject | undefined): string {
  if (!subject) return NO_SUBJECT;
  const { walletId, walletAlias, code, decimals, units } = subject;
  return JSON.stringify({ walletId, walletAlias, code, decimals, units: units.toString() });
}

/** The subject back from the field (as the script answers it with over_limit). */
export function subjectOfField(field: string | undefined): VelocitySubject | undefined {
  if (!field || field === NO_SUBJECT) return undefined;
  const s = JSON.parse(field) as Omit<VelocitySubject, 'units'> & { units: string };
  return { ...s, units: BigInt(s.units) };
}

/** The rules as the script reads them: alias or '*', code, limit (minor units), window (ms). */
export const ruleArgs = (rules: readonly Pick<VelocityRule, 'wallet' | 'code' | 'limit' | 'windowMs'>[]): string[] =>
  rules.flatMap((r) => [r.wallet, r.code, r.limit.toString(), String(r.windowMs)]);

/**
 * The ledger's running total: field TOTAL_FIELD of its amounts hash holds the sum of every
 * entry's minor units (a request id never starts with '#'), kept by each script that changes an
 * amount, in the same step, so the vote sums a window without reading each entry. HINCRBY is an
 * exact 64-bit integer. A ledger written before the total existed has none: every change skips
 * it and the vote sums the ledger once to start it (velocityCheck).
 * `ledgerAdd(amounts, delta)`; `ledgerPut(ledger, amounts, member, score, units)` sets an entry;
 * `ledgerDrop(ledger, amounts, member)` removes an entry and its amount (ledger nil: the amount
 * only); `ledgerSum(ledger, amounts, min, max)` sums the entries
 * scored in [min, max] with one HMGET per 500 (Lua's unpack has a stack limit).
 */
export const TOTAL_FIELD = '#total';
export const LEDGER_LUA = `
local function ledgerAdd(amounts, delta)
  if delta ~= 0 and redis.call('HEXISTS', amounts, '${TOTAL_FIELD}') == 1 then
    redis.call('HINCRBY', amounts, '${TOTAL_FIELD}', string.format('%.0f', delta))
  end
end
local function ledgerPut(ledger, amounts, member, score, units)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  redis.call('ZADD', ledger, score, member)
  redis.call('HSET', amounts, member, units)
  ledgerAdd(amounts, tonumber(units) - was)
end
local function ledgerDrop(ledger, amounts, member)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  if ledger then redis.call('ZREM', ledger, member) end
  if redis.call('HDEL', amounts, member) == 1 then ledgerAdd(amounts, -was) end
end
local function ledgerSum(ledger, amounts, min, max)
  local ids = redis.call('ZRANGEBYSCORE', ledger, min, max)
  local sum = 0
  for i = 1, #ids, 500 do
    for _, v in ipairs(redis.call('HMGET', amounts, unpack(ids, i, math.min(i + 499, #ids)))) do
      sum = sum + (tonumber(v) or 0)
    end
  end
  return sum
end
`;

/**
 * `velocityCheck(record, id, now, at)`, with ARGV[at] the ledger key prefix, ARGV[at + 1] the
 * retention (ms), ARGV[at + 2] the subject ('' for the record's field) and the rules from
 * ARGV[at + 3] (store/lua.ts VOTE): { refused = 'needs_subject' } for a record without the field,
 * { refused = 'over_limit', index, used, field } when the request does not fit a rule, else
 * { ledger, amounts, units } to record at quorum (all nil for a request that moves no money).
 * Needs LEDGER_LUA before it. Sums are in integer minor units: every cap is < 1e15, so a sum
 * near a cap is exact in a double, and a sum past 2^53 still compares as over the cap.
 * A window's sum is read from whichever side of its edge holds fewer entries: the entries inside
 * it, or the running total less the entries before it (exact while the total is below 2^53;
 * above, the entries inside are summed). Each rule costs a ZCOUNT and the smaller side's entries,
 * so hundreds of open reservations cost nothing more per vote.
 *
 * `velocityRules(first, alias, code)`: the rules that bind a subject, from the quadruples that
 * start at ARGV[first], as { index in the configured list (0-based), limit, window ms }. A
 * wallet's own rules for the code replace the '*' rules for it (rulesFor).
 */
export const VELOCITY_LUA = `
local function velocityRules(first, alias, code)
  code = string.upper(code)
  local own, any = {}, {}
  local i = first
  while ARGV[i] do
    if ARGV[i + 1] == code then
      local rule = { (i - first) / 4, tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]) }
      if ARGV[i] == alias then own[#own + 1] = rule elseif ARGV[i] == '*' then any[#any + 1] = rule end
    end
    i = i + 4
  end
  if #own > 0 then return own end
  return any
end
local function velocityCheck(record, id, now, at)
  local field = ARGV[at + 2]
  if field == '' then field = redis.call('HGET', record, 'velocity') end
  -- A record stored before its subject was: nothing counted; the app reads it and votes again.
  if not field or field == '' then return { refused = 'needs_subject' } end
  if field == '${NO_SUBJECT}' then return {} end
  local s = cjson.decode(field)
  local ledger = ARGV[at] .. s.walletId .. ':' .. s.code
  local amounts = ledger .. ':amounts'
  local units = tonumber(s.units)
  local cut = '(' .. string.format('%.0f', now - tonumber(ARGV[at + 1]))
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, '-inf', cut)) do
    ledgerDrop(ledger, amounts, member)
  end
  -- A reservation whose rows all ran or were given back holds nothing: it leaves the ledger.
  local open = redis.call('ZRANGEBYSCORE', ledger, '+inf', '+inf')
  for i = 1, #open, 500 do
    local held = redis.call('HMGET', amounts, unpack(open, i, math.min(i + 499, #open)))
    for k = 1, math.min(500, #open - i + 1) do
      if (tonumber(held[k]) or 0) <= 0 then ledgerDrop(ledger, amounts, open[i + k - 1]) end
    end
  end
  local total = tonumber(redis.call('HGET', amounts, '${TOTAL_FIELD}'))
  if not total then
    total = ledgerSum(ledger, amounts, '-inf', '+inf')
    redis.call('HSET', amounts, '${TOTAL_FIELD}', string.format('%.0f', total))
  end
  local count = redis.call('ZCARD', ledger)
  -- A request's own entry never counts against itself.
  local mine = redis.call('ZSCORE', ledger, id)
  local mineUnits = mine and (tonumber(redis.call('HGET', amounts, id)) or 0) or 0
  for _, rule in ipairs(velocityRules(at + 3, s.walletAlias, s.code)) do
    local edge = string.format('%.0f', now - rule[3])
    local before = redis.call('ZCOUNT', ledger, '-inf', edge)
    local used
    if count - before <= before or total >= 2^53 then
      used = ledgerSum(ledger, amounts, '(' .. edge, '+inf')
    else
      used = total - ledgerSum(ledger, amounts, '-inf', edge)
    end
    if mine and (mine == 'inf' or tonumber(mine) > now - rule[3]) then used = used - mineUnits end
    if used + units > rule[2] then
      return { refused = 'over_limit', index = tostring(rule[1]), used = string.format('%.0f', used), field = field }
    end
  end
  return { ledger = ledger, amounts = amounts, units = s.units }
end
`;
