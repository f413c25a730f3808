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
 * `velocityCheck(record, id, now, at)`, with ARGV[at] the ledger key prefix, ARGV[at + 1] the
 * retention (ms), ARGV[at + 2] the subject ('' for the record's field) and the rules from
 * ARGV[at + 3] (store/lua.ts VOTE): { refused = 'needs_subject' } for a record without the field,
 * { refused = 'over_limit', index, used, field } when the request does not fit a rule, else
 * { ledger, amounts, units } to record at quorum (all nil for a request that moves no money).
 * Sums are in integer minor units: every cap is < 1e15, so a sum near a cap is exact in a
 * double, and a sum past 2^53 still compares as over the cap.
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
    redis.call('ZREM', ledger, member)
    redis.call('HDEL', amounts, member)
  end
  -- A reservation whose rows all ran or were given back holds nothing: it leaves the ledger.
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, '+inf', '+inf')) do
    if (tonumber(redis.call('HGET', amounts, member)) or 0) <= 0 then
      redis.call('ZREM', ledger, member)
      redis.call('HDEL', amounts, member)
    end
  end
  for _, rule in ipairs(velocityRules(at + 3, s.walletAlias, s.code)) do
    local since = '(' .. string.format('%.0f', now - rule[3])
    local used = 0
    for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, since, '+inf')) do
      if member ~= id then used = used + (tonumber(redis.call('HGET', amounts, member)) or 0) end
    end
    if used + units > rule[2] then
      return { refused = 'over_limit', index = tostring(rule[1]), used = string.format('%.0f', used), field = field }
    end
  end
  return { ledger = ledger, amounts = amounts, units = s.units }
end
`;
