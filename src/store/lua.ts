/**
 * Lua scripts for the request record's atomic transitions. Each runs as one Redis command, so
 * two web processes, two workers or twenty clicks can never both win the same transition.
 */

import { COMMON } from './approval-lua.js';
import { BATCH_LUA } from './batch-lua.js';
import { VELOCITY_LUA } from './velocity-lua.js';

/**
 * KEYS: record, history, pending index, approved index. ARGV: voter, now (ms), history entry
 * JSON for the vote, history entry JSON for reaching quorum, history entry JSON for queueing,
 * request id. Returns { outcome, state, votes, required, decidedBy, decidedAt, expiresAt } so
 * the click needs no second read (the approval path's round trips), and on quorum
 * also { kind, history position of 'approved' }. The per-state indexes (sorted sets scored by
 * when the state was entered) move with the state in the same script.
 * KEYS[5] execution 1 (migration), KEYS[6] the ready index, KEYS[7] the executing set.
 * Optional: KEYS[8] the freeze flag; with VELOCITY_LIMITS set, ARGV[7] the velocity
 * ledger key prefix (`<prefix>:velocity:`), ARGV[8] retention (ms), ARGV[9] the request's subject
 * ('' to read the approval's `velocity` field, store/velocity-lua.ts, written at creation; the
 * app passes it only for a record stored before that field), then every configured rule as
 * (alias or '*', code, limit, window ms): the script picks the subject's own (rulesFor). The
 * ledger (sorted set: request id scored +inf until it starts, then by its start time) and its
 * amounts (hash: request id → minor units) are `<ARGV[7]><wallet id>:<CODE>` and `…:amounts`,
 * keys built here, not passed in KEYS: the prefix is hash-tagged on a cluster, so they share the
 * approval's slot. `needs_subject`: at quorum, the record has no `velocity` field and none was
 * passed; nothing counted. `over_limit` answers carry the broken rule's index in the configured
 * list, the minor units already used in it and the subject field at [10], [11] and [12].
 * A batch's vote also passes the wallets' turns as its last key (KEYS[9], after the
 * freeze flag): at quorum the batch takes its place in its wallet's approval order.
 */
export const VOTE = `${COMMON}${BATCH_LUA}${VELOCITY_LUA}
local limited = ARGV[7] ~= nil
-- Time: decidedAt and the not-before time come from Redis TIME, never the web host's clock
-- (a worker compares them with the same clock in START). At quorum runAt is the later of the
-- sealed set time (timing.notBefore) and the quorum plus the sealed cancel window (timing.delayMs).
local rt = redis.call('TIME')
local rnow = tonumber(rt[1]) * 1000 + math.floor(tonumber(rt[2]) / 1000)
local function runAtOf(a)
  local ok, f = pcall(cjson.decode, redis.call('HGET', a, 'frozen') or '')
  local t = (ok and type(f) == 'table' and type(f.timing) == 'table') and f.timing or {}
  local at = 0
  if tonumber(t.delayMs) then at = rnow + tonumber(t.delayMs) end
  if tonumber(t.notBefore) and tonumber(t.notBefore) > at then at = tonumber(t.notBefore) end
  return at
end
local turns = nil
if string.sub(ARGV[6], 1, 2) == 'B-' and #KEYS == 9 then turns = KEYS[9] end
migrate(KEYS[1], KEYS[5], KEYS[6], KEYS[7], ARGV[6], tonumber(ARGV[2]))
local function answer(outcome, state, votes)
  local f = redis.call('HMGET', KEYS[1], 'required', 'decidedBy', 'decidedAt', 'expiresAt', 'runAt')
  return {outcome, state, tostring(votes), f[1] or '', f[2] or '', f[3] or '', f[4] or '', '', 0, '', '', '', f[5] or ''}
end
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', '', '0', '', '', '', ''} end
local votes = cjson.decode(redis.call('HGET', KEYS[1], 'votes'))
if state ~= 'pending' then return answer('not_pending', state, #votes) end
if tonumber(ARGV[2]) >= tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) then return answer('expired', state, #votes) end
-- No approval lands while Rampart is frozen (checked in the same script as the vote).
if KEYS[8] and redis.call('EXISTS', KEYS[8]) == 1 then return answer('frozen', state, #votes) end
if redis.call('HGET', KEYS[1], 'requester') == ARGV[1] then return answer('self', state, #votes) end
for _, v in ipairs(votes) do
  if v.user == ARGV[1] then return answer('duplicate', state, #votes) end
end
-- On a step-up request a vote counts only with a verified passkey, which the vote's
-- history entry (ARGV[3]) carries as "passkey"; a Slack click never has one.
local proof = nil
if redis.call('HGET', KEYS[1], 'stepUp') == '1' then
  proof = cjson.decode(ARGV[3]).passkey
  if not proof then return answer('step_up', state, #votes) end
end
local quorum = #votes + 1 >= tonumber(redis.call('HGET', KEYS[1], 'required'))
-- Velocity limits (store/velocity-lua.ts), checked before the vote counts.
local vel = {}
if quorum and limited then vel = velocityCheck(KEYS[1], ARGV[6], tonumber(ARGV[2]), 7) end
if vel.refused then
  local a = answer(vel.refused, state, #votes)
  if vel.refused == 'over_limit' then
    a[8], a[9], a[10], a[11], a[12] = '', 0, vel.index, vel.used, vel.field
  end
  return a
end
votes[#votes + 1] = { user = ARGV[1], at = tonumber(ARGV[2]), passkey = proof }
redis.call('HSET', KEYS[1], 'votes', cjson.encode(votes))
redis.call('RPUSH', KEYS[2], ARGV[3])
if quorum then
  redis.call('HSET', KEYS[1], 'state', 'approved', 'view', 'approved', 'decidedBy', ARGV[1], 'decidedAt', string.format('%.0f', rnow))
  local runAt = runAtOf(KEYS[1])
  if runAt > 0 then redis.call('HSET', KEYS[1], 'runAt', string.format('%.0f', runAt)) end
  redis.call('HDEL', KEYS[1], 'held')
  -- Its queued executions may now start (the ready index is what the reconciler and the freeze read).
  redis.call('ZADD', KEYS[6], ARGV[2], ARGV[6])
  if turns then redis.call('ZADD', turns, 'NX', ARGV[2], (turnMember(KEYS[5], ARGV[6]))) end
  if vel.ledger then
    -- +inf until it starts (never ages out while queued, paused or frozen);
    -- the FINISH script re-stamps it with its start time.
    redis.call('ZADD', vel.ledger, '+inf', ARGV[6])
    redis.call('HSET', vel.amounts, ARGV[6], vel.units)
  end
  local length = redis.call('RPUSH', KEYS[2], ARGV[4], ARGV[5])
  redis.call('ZREM', KEYS[3], ARGV[6])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
  local kind = kindOf(KEYS[1])
  local r = answer('approved', 'approved', #votes)
  r[8] = kind
  r[9] = length - 1
  return r
end
return answer('voted', 'pending', #votes)
`;

/** Redis's own clock in ms, so a deadline never depends on the web host's clock. */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: sequence. Returns { sequence number, Redis time in ms }. */
export const ALLOCATE = `
${REDIS_NOW}
return {redis.call('INCR', KEYS[1]), now}
`;

/**
 * Claim of the submitted form and creation of the pending request as ONE step: a
 * submission whose create did not happen can be sent again; one whose create happened has its
 * record, history and indexes. KEYS: record, history, recent, open, submission claim (or the
 * record's own key when there is no form), pending-state index. ARGV: frozen JSON, id, requester,
 * required approvals, expiresAt, history entry JSON, createdAt, not-after (Redis ms, '' for
 * none), claim TTL ms, kind, '1' when every vote needs a passkey (else '0'), the
 * number of executions n, then per execution its sealed call JSON, sealHash and destination key
 * ('' for none: domain/destination-key.ts, kept beside the call, never inside what the hashes
 * cover); KEYS[7..6+n] the executions; then index keys, with (member,
 * retention ms) per key in ARGV.
 * Last, the open caps (domain/open-caps.ts openCapOutcome, applied here): KEYS[#KEYS - 1] the
 * requester's open requests, KEYS[#KEYS] the API key's (the requester's again for a request made
 * without a key); ARGV[#ARGV - 1] and ARGV[#ARGV] their caps ('' for none). A member counts while
 * it is still in the open set (KEYS[4], which the scripts that close an approval leave), so
 * closing an approval releases its place. Before them, ARGV[#ARGV - 2] the approval's `velocity`
 * field (store/velocity-lua.ts createField), which the VOTE script reads for velocity limits.
 * Returns { 'created'|'taken'|'late'|'exists', request id holding the claim }, or
 * { 'too_many_open', 'requester'|'api_key', open count } with nothing stored.
 */
export const CREATE = `
${REDIS_NOW}
if ARGV[8] ~= '' and now > tonumber(ARGV[8]) then return {'late', ''} end
if KEYS[5] ~= KEYS[1] then
  local owner = redis.call('GET', KEYS[5])
  if owner then return {'taken', owner} end
end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists', ARGV[2]} end
-- The open caps are counted and claimed here, in the create's own step: a count read before the
-- create lets every request sent at the same moment pass it. A cap that is not a number allows nothing.
local byRequester, byKey = KEYS[#KEYS - 1], KEYS[#KEYS]
local keyed = byKey ~= byRequester
local function stillOpen(set)
  local open = 0
  for _, id in ipairs(redis.call('SMEMBERS', set)) do
    if redis.call('SISMEMBER', KEYS[4], id) == 1 then open = open + 1 else redis.call('SREM', set, id) end
  end
  return open
end
local function full(set, cap)
  if cap == '' then return nil end
  local open = stillOpen(set)
  if open >= (tonumber(cap) or 0) then return tostring(open) end
end
local over = full(byRequester, ARGV[#ARGV - 1])
if over then return {'too_many_open', 'requester', over} end
over = keyed and full(byKey, ARGV[#ARGV])
if over then return {'too_many_open', 'api_key', over} end
redis.call('SADD', byRequester, ARGV[2])
if keyed then redis.call('SADD', byKey, ARGV[2]) end
if KEYS[5] ~= KEYS[1] then redis.call('SET', KEYS[5], ARGV[2], 'PX', ARGV[9]) end
local n = tonumber(ARGV[12])
redis.call('HSET', KEYS[1], 'frozen', ARGV[1], 'state', 'pending', 'requester', ARGV[3],
  'required', ARGV[4], 'expiresAt', ARGV[5], 'votes', '[]', 'kind', ARGV[10],
  'v', '2', 'view', 'pending', 'n', tostring(n), 'c:queued', tostring(n), 'velocity', ARGV[#ARGV - 2])
-- Each execution queued with its sealed call; none can start while the approval is pending.
for k = 1, n do
  redis.call('HSET', KEYS[6 + k], 'v', '2', 'state', 'queued', 'approval', ARGV[2], 'n', tostring(k),
    'call', ARGV[10 + 3 * k], 'sealHash', ARGV[11 + 3 * k], 'tries', '0')
  if ARGV[12 + 3 * k] ~= '' then redis.call('HSET', KEYS[6 + k], 'dest', ARGV[12 + 3 * k]) end
end
-- The recent-payments and batch-file indexes (store/recent-payments.ts), in the same
-- step as the executions, each pruned to its window and expiring with it.
for j = 1, #KEYS - 8 - n do
  local key, member, keep = KEYS[6 + n + j], ARGV[11 + 3 * n + 2 * j], tonumber(ARGV[12 + 3 * n + 2 * j])
  redis.call('ZADD', key, ARGV[7], member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. string.format('%.0f', tonumber(ARGV[7]) - keep))
  redis.call('PEXPIRE', key, keep)
end
-- ARGV[11] '1' marks a step-up request (the VOTE script reads it).
if ARGV[11] == '1' then redis.call('HSET', KEYS[1], 'stepUp', '1') end
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[2])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
return {'created', ARGV[2]}
`;
