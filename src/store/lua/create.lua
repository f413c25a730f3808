--[[
  Claim of the submitted form and creation of the pending approval as ONE step: a submission
  whose create did not happen can be sent again; one whose create happened has its record,
  history, indexes and executions.
  KEYS[1] approval            KEYS[4] open set
  KEYS[2] history             KEYS[5] submission claim (the approval's own key without a form)
  KEYS[3] recent index        KEYS[6] pending-state index
  KEYS[7..6+n] the n executions
  KEYS[7+n..#KEYS-2] index keys (store/recent-payments.ts), each with (member, retention ms) in ARGV
  KEYS[#KEYS-1] the requester's open requests
  KEYS[#KEYS] the API key's open requests (the requester's again without a key)
  ARGV[1] the sealed request JSON (stored as `frozen`)
  ARGV[2] approval id         ARGV[7] createdAt
  ARGV[3] requester           ARGV[8] not-after (Redis ms, '' for none)
  ARGV[4] required approvals  ARGV[9] claim TTL ms
  ARGV[5] expiresAt           ARGV[10] kind (the call's kind: transfer, offramp, beneficiary)
  ARGV[6] history entry JSON  ARGV[11] '1' when every vote needs a passkey, else '0'
  ARGV[12] the number of executions n
  ARGV[10+3k], ARGV[11+3k], ARGV[12+3k] execution k's sealed call JSON, sealHash and destination
    key ('' for none: domain/destination-key.ts, kept beside the call, never inside what the
    hashes cover)
  ARGV[11+3n+2j], ARGV[12+3n+2j] index key j's member and retention (ms)
  ARGV[#ARGV-4] '1' when a vote counts only with the card's warnings confirmed (a lookalike:
    domain/address-book.ts mustConfirmLookalike), else '' (the VOTE script reads `confirm`)
  ARGV[#ARGV-3] the approval's shape: 'single', 'batch' or 'series' (read by every execution
    script). A series (n = 1) keeps its one call on itself as the run's template (`runCall`,
    `runSeal`, `runDest`) and has no execution: KEYS[7] is then not written. Its id joins the
    series index `<prefix>:series:index` (store/store-keys.ts StoreKeys.series).
  ARGV[#ARGV-2] the approval's `velocity` field (store/velocity-lua.ts createField)
  ARGV[#ARGV-1], ARGV[#ARGV] the requester's and the API key's open caps ('' for none;
    domain/open-caps.ts openCapOutcome, applied here). A member counts while it is still in the
    open set (KEYS[4], which the scripts that close an approval leave), so closing an approval
    releases its place; a series counts only while pending (domain/open-caps.ts holdsOpenPlace:
    once live it leaves the holder's count, read from its approval under KEYS[1]'s prefix).
  Each execution whose destination key is live in the address book (`<prefix>:book:index`, built
    from KEYS[1]'s prefix) is sealed with that entry's id (field `entry`, read by start.lua).
  Returns { 'created'|'taken'|'late'|'exists', request id holding the claim }, or
    { 'too_many_open', 'requester'|'api_key', open count } with nothing stored.
]]
-- @include "redis-now"
-- @include "series-index"
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
local approvals = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[2])
-- A live series had its approval and its runs are approvals of their own, none counted here; it
-- never becomes pending again, so its place is given back for good.
local function holdsPlace(id)
  return redis.call('SISMEMBER', KEYS[4], id) == 1 and redis.call('HGET', approvals .. id, 'state') ~= 'live'
end
local function stillOpen(set)
  local open = 0
  for _, id in ipairs(redis.call('SMEMBERS', set)) do
    if holdsPlace(id) then open = open + 1 else redis.call('SREM', set, id) end
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
  'required', ARGV[4], 'expiresAt', ARGV[5], 'votes', '[]', 'kind', ARGV[10], 'shape', ARGV[#ARGV - 3],
  'v', '3', 'view', 'pending', 'n', tostring(n), 'c:queued', tostring(n), 'velocity', ARGV[#ARGV - 2])
-- A series (recurring payouts) seals its run's call on itself, never as an execution: nothing
-- of a series starts; each run is an approval of its own that series-run.lua creates with this
-- exact call (DESIGN "States, ids and hashes").
if ARGV[#ARGV - 3] == 'series' then
  redis.call('HSET', KEYS[1], 'n', '0', 'c:queued', '0', 'runCall', ARGV[13], 'runSeal', ARGV[14], 'runDest', ARGV[15])
  n = 0
  -- The series index (includes/series-index.lua), its key built from KEYS[1]'s prefix as the book's is.
  seriesIndexAdd(string.sub(KEYS[1], 1, #KEYS[1] - #(':req:' .. ARGV[2])) .. ':series:index', ARGV[2])
end
-- Each execution queued with its sealed call; none can start while the approval is pending.
for k = 1, n do
  redis.call('HSET', KEYS[6 + k], 'v', '2', 'state', 'queued', 'approval', ARGV[2], 'n', tostring(k),
    'call', ARGV[10 + 3 * k], 'sealHash', ARGV[11 + 3 * k], 'tries', '0')
  if ARGV[12 + 3 * k] ~= '' then redis.call('HSET', KEYS[6 + k], 'dest', ARGV[12 + 3 * k]) end
end
-- Address book: each execution is sealed with the live entry of its destination key, read in
-- this same step, so a removal (or a remove-and-re-add, a new id) stops it in start.lua
-- (store/address-book.ts names the index under the record's own prefix).
local book = string.sub(KEYS[1], 1, #KEYS[1] - #(':req:' .. ARGV[2])) .. ':book:index'
for k = 1, n do
  local dest = ARGV[12 + 3 * k]
  local entry = dest ~= '' and redis.call('HGET', book, dest)
  if entry then redis.call('HSET', KEYS[6 + k], 'entry', entry) end
end
-- The recent-payments and batch-file indexes (store/recent-payments.ts), in the same
-- step as the executions, each pruned to its window and expiring with it.
local m = tonumber(ARGV[12])
for j = 1, #KEYS - 8 - m do
  local key, member, keep = KEYS[6 + m + j], ARGV[11 + 3 * m + 2 * j], tonumber(ARGV[12 + 3 * m + 2 * j])
  redis.call('ZADD', key, ARGV[7], member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. string.format('%.0f', tonumber(ARGV[7]) - keep))
  redis.call('PEXPIRE', key, keep)
end
-- ARGV[11] '1' marks a step-up request (the VOTE script reads it).
if ARGV[11] == '1' then redis.call('HSET', KEYS[1], 'stepUp', '1') end
if ARGV[#ARGV - 4] == '1' then redis.call('HSET', KEYS[1], 'confirm', '1') end
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[2])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
return {'created', ARGV[2]}
