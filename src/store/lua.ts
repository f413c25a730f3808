/**
 * Lua scripts for the request record's atomic transitions. Each runs as one Redis command, so
 * two web processes, two workers or twenty clicks can never both win the same transition.
 */

/** The request's kind, stored beside the record since issue 14; read from the frozen call before. */
const KIND = `local kind = redis.call('HGET', KEYS[1], 'kind') or cjson.decode(redis.call('HGET', KEYS[1], 'frozen')).call.kind`;

/**
 * KEYS: record, history, pending index, approved index. ARGV: voter, now (ms), history entry
 * JSON for the vote, history entry JSON for reaching quorum, history entry JSON for queueing,
 * request id. Returns { outcome, state, votes, required, decidedBy, decidedAt, expiresAt } so
 * the click needs no second read (issue 12: the approval path's round trips), and on quorum
 * also { kind, history position of 'approved' }. The per-state indexes (sorted sets scored by
 * when the state was entered, issue 14) move with the state in the same script.
 * Issue 13, optional: KEYS[5] the freeze flag; KEYS[6], KEYS[7] the velocity ledger (sorted set:
 * request id scored by approval time) and its amounts (hash: request id → minor units); then
 * ARGV[7..] minor units, retention (ms), and limit,window pairs. `over_limit` answers carry the
 * index of the broken limit and the minor units already used in it at [10] and [11].
 */
export const VOTE = `
local function answer(outcome, state, votes)
  local f = redis.call('HMGET', KEYS[1], 'required', 'decidedBy', 'decidedAt', 'expiresAt')
  return {outcome, state, tostring(votes), f[1] or '', f[2] or '', f[3] or '', f[4] or ''}
end
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', '', '0', '', '', '', ''} end
local votes = cjson.decode(redis.call('HGET', KEYS[1], 'votes'))
if state ~= 'pending' then return answer('not_pending', state, #votes) end
if tonumber(ARGV[2]) >= tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) then return answer('expired', state, #votes) end
-- issue 13: no approval lands while Rampart is frozen (checked in the same script as the vote).
if KEYS[5] and redis.call('EXISTS', KEYS[5]) == 1 then return answer('frozen', state, #votes) end
if redis.call('HGET', KEYS[1], 'requester') == ARGV[1] then return answer('self', state, #votes) end
for _, v in ipairs(votes) do
  if v.user == ARGV[1] then return answer('duplicate', state, #votes) end
end
-- issue 22: on a step-up request a vote counts only with a verified passkey, which the vote's
-- history entry (ARGV[3]) carries as "passkey"; a Slack click never has one.
local proof = nil
if redis.call('HGET', KEYS[1], 'stepUp') == '1' then
  proof = cjson.decode(ARGV[3]).passkey
  if not proof then return answer('step_up', state, #votes) end
end
local quorum = #votes + 1 >= tonumber(redis.call('HGET', KEYS[1], 'required'))
-- issue 13: velocity limits, in integer minor units. Every cap is < 1e15, so a sum near a cap
-- is exact in a double, and a sum past 2^53 still compares as over the cap.
if quorum and KEYS[6] then
  local now = tonumber(ARGV[2])
  local units = tonumber(ARGV[7])
  local cut = '(' .. string.format('%.0f', now - tonumber(ARGV[8]))
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', cut)) do
    redis.call('ZREM', KEYS[6], id)
    redis.call('HDEL', KEYS[7], id)
  end
  local i = 9
  while ARGV[i] do
    local since = '(' .. string.format('%.0f', now - tonumber(ARGV[i + 1]))
    local used = 0
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], since, '+inf')) do
      if id ~= ARGV[6] then used = used + (tonumber(redis.call('HGET', KEYS[7], id)) or 0) end
    end
    if used + units > tonumber(ARGV[i]) then
      local a = answer('over_limit', state, #votes)
      a[8] = ''
      a[9] = 0
      a[10] = tostring((i - 9) / 2)
      a[11] = string.format('%.0f', used)
      return a
    end
    i = i + 2
  end
end
votes[#votes + 1] = { user = ARGV[1], at = tonumber(ARGV[2]), passkey = proof }
redis.call('HSET', KEYS[1], 'votes', cjson.encode(votes))
redis.call('RPUSH', KEYS[2], ARGV[3])
if quorum then
  redis.call('HSET', KEYS[1], 'state', 'approved', 'decidedBy', ARGV[1], 'decidedAt', ARGV[2])
  redis.call('HDEL', KEYS[1], 'held')
  if KEYS[6] then
    redis.call('ZADD', KEYS[6], ARGV[2], ARGV[6])
    redis.call('HSET', KEYS[7], ARGV[6], ARGV[7])
  end
  local length = redis.call('RPUSH', KEYS[2], ARGV[4], ARGV[5])
  redis.call('ZREM', KEYS[3], ARGV[6])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
  ${KIND}
  local r = answer('approved', 'approved', #votes)
  r[8] = kind
  r[9] = length - 1
  return r
end
return answer('voted', 'pending', #votes)
`;

/**
 * Compare-and-set of the state. KEYS: record, history, open-set, new state's index, then each
 * allowed current state's index in ARGV[1]'s order (issue 14). ARGV: allowed current states
 * (comma-separated), new state, history entry JSON, fields JSON (HSET), required execToken or
 * '', request id, '1' when the new state is final, '1' to also return the frozen request and
 * decidedBy (the worker's start: one round trip instead of a read then a compare-and-set), now
 * (ms). Returns { 1|0, state before [, kind, history length, frozen, decidedBy] }.
 */
export const TRANSITION = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, ''} end
local allowed = false
local i = 0
for s in string.gmatch(ARGV[1], '[^,]+') do
  i = i + 1
  if s == state then allowed = 4 + i end
end
if not allowed then return {0, state} end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'execToken') ~= ARGV[5] then return {0, state} end
-- issue 13: ARGV[10], when given, is the KEYS index of a hold flag (the freeze): while it is set
-- nothing moves, in the same script as the compare-and-set, so a freeze can never slip between.
if ARGV[10] and ARGV[10] ~= '' and redis.call('EXISTS', KEYS[tonumber(ARGV[10])]) == 1 then return {-1, state} end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
local fields = cjson.decode(ARGV[4])
for k, v in pairs(fields) do redis.call('HSET', KEYS[1], k, v) end
local seq = redis.call('RPUSH', KEYS[2], ARGV[3])
if ARGV[7] == '1' then redis.call('SREM', KEYS[3], ARGV[6]) end
redis.call('ZREM', KEYS[allowed], ARGV[6])
redis.call('ZADD', KEYS[4], ARGV[9], ARGV[6])
${KIND}
if ARGV[8] == '1' then
  return {1, state, kind, seq, redis.call('HGET', KEYS[1], 'frozen'), redis.call('HGET', KEYS[1], 'decidedBy') or ''}
end
return {1, state, kind, seq}
`;

/** Redis's own clock in ms, so a deadline never depends on the web host's clock (issue 9). */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: sequence. Returns { sequence number, Redis time in ms }. */
export const ALLOCATE = `
${REDIS_NOW}
return {redis.call('INCR', KEYS[1]), now}
`;

/**
 * Claim of the submitted form and creation of the pending request as ONE step (issue 9): a
 * submission whose create did not happen can be sent again; one whose create happened has its
 * record, history and indexes. KEYS: record, history, recent, open, submission claim (or the
 * record's own key when there is no form), pending-state index. ARGV: frozen JSON, id, requester,
 * required approvals, expiresAt, history entry JSON, createdAt, not-after (Redis ms, '' for
 * none), claim TTL ms, kind, and (issue 22, optional) '1' when every vote needs a passkey.
 * Returns { 'created'|'taken'|'late'|'exists', request id holding the claim }.
 */
export const CREATE = `
${REDIS_NOW}
if ARGV[8] ~= '' and now > tonumber(ARGV[8]) then return {'late', ''} end
if KEYS[5] ~= KEYS[1] then
  local owner = redis.call('GET', KEYS[5])
  if owner then return {'taken', owner} end
end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists', ARGV[2]} end
if KEYS[5] ~= KEYS[1] then redis.call('SET', KEYS[5], ARGV[2], 'PX', ARGV[9]) end
redis.call('HSET', KEYS[1], 'frozen', ARGV[1], 'state', 'pending', 'requester', ARGV[3],
  'required', ARGV[4], 'expiresAt', ARGV[5], 'votes', '[]', 'kind', ARGV[10])
-- issue 22: ARGV[11] '1' marks a step-up request (the VOTE script reads it).
if ARGV[11] == '1' then redis.call('HSET', KEYS[1], 'stepUp', '1') end
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[2])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
return {'created', ARGV[2]}
`;
