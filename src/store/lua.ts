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
if redis.call('HGET', KEYS[1], 'requester') == ARGV[1] then return answer('self', state, #votes) end
for _, v in ipairs(votes) do
  if v.user == ARGV[1] then return answer('duplicate', state, #votes) end
end
votes[#votes + 1] = { user = ARGV[1], at = tonumber(ARGV[2]) }
redis.call('HSET', KEYS[1], 'votes', cjson.encode(votes))
redis.call('RPUSH', KEYS[2], ARGV[3])
if #votes >= tonumber(redis.call('HGET', KEYS[1], 'required')) then
  redis.call('HSET', KEYS[1], 'state', 'approved', 'decidedBy', ARGV[1], 'decidedAt', ARGV[2])
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
