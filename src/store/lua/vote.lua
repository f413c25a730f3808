--[[
  One approval vote, atomically, with what the click needs to answer (no second read). Two web
  processes, two workers or twenty clicks can never both win the same transition.
  KEYS[1] approval            KEYS[5] execution 1 (to migrate an older record)
  KEYS[2] history             KEYS[6] ready index
  KEYS[3] pending index       KEYS[7] executing set
  KEYS[4] approved index      KEYS[8] the series index (store/store-keys.ts StoreKeys.series)
  KEYS[9] the wake list: at quorum the approval's id is pushed on it, and a worker's blocking
    pop starts execution 1 at once (adapters/jobs/wake-runner.ts); kept to WAKE_KEEP entries
  KEYS[10] freeze flag (optional)
  KEYS[11] the wallets' turns (optional, with KEYS[10]): a batch takes its place in its wallet's
    approval order at quorum.
  ARGV[1] voter               ARGV[4] history entry JSON for reaching quorum
  ARGV[2] now (ms)            ARGV[5] history entry JSON for queueing
  ARGV[3] history entry JSON for the vote (a step-up request's carries "passkey")
  ARGV[6] approval id
  With VELOCITY_LIMITS set: ARGV[7] the velocity ledger key prefix (`<prefix>:velocity:`),
    ARGV[8] retention (ms), ARGV[9] the request's subject ('' to read the approval's `velocity`
    field, written at creation; the app passes it only for a record stored before that field),
    then every configured rule as (alias or '*', code, limit, window ms): the script picks the
    subject's own (includes/velocity.lua). The ledger (sorted set: request id scored +inf until
    it starts, then by its start time) and its amounts (hash: request id → minor units) are
    `<ARGV[7]><wallet id>:<CODE>` and `…:amounts`, keys built here, not passed in KEYS: the
    prefix is hash-tagged on a cluster, so they share the approval's slot.
  A series reaches its quorum as 'approved' with state 'live' (no velocity, no execution), and
    joins the series index (KEYS[8]) in the same step, scored as create.lua scores it.
  Returns { outcome, state, votes, required, decidedBy, decidedAt (Redis time), expiresAt }; on
    quorum also [8] kind and [9] the history position of 'approved'. Outcomes: approved, voted, duplicate,
    self, not_pending, expired, missing, frozen, step_up, unconfirmed (the approval carries a
    lookalike, `confirm`, and the vote's entry does not say `warningsChecked`), needs_subject (at quorum, the record
    has no `velocity` field and none was passed; nothing counted), over_limit (with the broken
    rule's index in the configured list, the minor units already used in it and the subject
    field at [10], [11] and [12]). The per-state indexes (sorted sets scored by when the state
    was entered) move with the state in the same script.
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
-- @include "velocity"
-- @include "series-index"
local limited = ARGV[7] ~= nil
local WAKE_KEEP = 10000
-- Time: decidedAt and the not-before time come from Redis TIME, never the web host's clock
-- (a worker compares them with the same clock in start.lua). At quorum runAt is the later of the
-- sealed set time (timing.notBefore) and the quorum plus the sealed cancel window (timing.delayMs).
local rt = redis.call('TIME')
local rnow = tonumber(rt[1]) * 1000 + math.floor(tonumber(rt[2]) / 1000)
local function runAtOf(a)
  local raw = redis.call('HGET', a, 'frozen') or ''
  -- Decoding the sealed call is the costliest step of a vote (cjson: tens of µs per KB inside
  -- Redis, on every quorum); a call sealed without timing has no runAt, so it is not decoded.
  if not string.find(raw, '"timing"', 1, true) then return 0 end
  local ok, f = pcall(cjson.decode, raw)
  local t = (ok and type(f) == 'table' and type(f.timing) == 'table') and f.timing or {}
  local at = 0
  if tonumber(t.delayMs) then at = rnow + tonumber(t.delayMs) end
  if tonumber(t.notBefore) and tonumber(t.notBefore) > at then at = tonumber(t.notBefore) end
  return at
end
migrate(KEYS[1], KEYS[5], KEYS[6], KEYS[7], ARGV[6], tonumber(ARGV[2]))
-- Everything the vote decides on, in one read (after the migration, which may write it).
local rec = redis.call('HMGET', KEYS[1], 'state', 'votes', 'expiresAt', 'requester', 'confirm', 'stepUp', 'required',
  'shape', 'velocity')
local shape = shapeOf(KEYS[1], rec[8])
local turns = nil
if #KEYS == 11 and shape == 'batch' then turns = KEYS[11] end
-- 'required' and 'expiresAt' as `rec` read them (no vote writes them); what the quorum writes is
-- read after it.
local function answer(outcome, state, votes)
  local f = redis.call('HMGET', KEYS[1], 'decidedBy', 'decidedAt')
  return {outcome, state, tostring(votes), rec[7] or '', f[1] or '', f[2] or '', rec[3] or '', '', 0, '', '', ''}
end
local state = rec[1]
if not state then return {'missing', '', '0', '', '', '', ''} end
local votes = cjson.decode(rec[2])
if state ~= 'pending' then return answer('not_pending', state, #votes) end
if tonumber(ARGV[2]) >= tonumber(rec[3]) then return answer('expired', state, #votes) end
-- No approval lands while Rampart is frozen (checked in the same script as the vote).
if KEYS[10] and redis.call('EXISTS', KEYS[10]) == 1 then return answer('frozen', state, #votes) end
if rec[4] == ARGV[1] then return answer('self', state, #votes) end
for _, v in ipairs(votes) do
  if v.user == ARGV[1] then return answer('duplicate', state, #votes) end
end
-- An approval that carries a lookalike counts a vote only with the card's warnings confirmed
-- (the Approve button's confirm dialog names it), which the vote's entry says. Asked
-- before the passkey, so nobody is sent to the passkey page for a vote that cannot count.
if rec[5] == '1' and not cjson.decode(ARGV[3]).warningsChecked then
  return answer('unconfirmed', state, #votes)
end
-- On a step-up request a vote counts only with a verified passkey, which the vote's
-- history entry (ARGV[3]) carries as "passkey"; a Slack click never has one.
local proof = nil
if rec[6] == '1' then
  proof = cjson.decode(ARGV[3]).passkey
  if not proof then return answer('step_up', state, #votes) end
end
local quorum = #votes + 1 >= tonumber(rec[7])
-- A series (recurring payouts) goes live at its quorum and reserves no velocity: it has no
-- execution, and each run reserves its own amount when series-run.lua creates it.
if quorum and shape == 'series' then
  votes[#votes + 1] = { user = ARGV[1], at = tonumber(ARGV[2]), passkey = proof }
  redis.call('HSET', KEYS[1], 'votes', cjson.encode(votes), 'state', 'live', 'view', 'approved',
    'decidedBy', ARGV[1], 'decidedAt', string.format('%.0f', rnow))
  local length = redis.call('RPUSH', KEYS[2], ARGV[3], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[6])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
  -- Every series goes live through this quorum, so one a process of the previous version
  -- created is listed once approved (includes/series-index.lua).
  seriesIndexAdd(KEYS[8], ARGV[6])
  local r = answer('approved', 'live', #votes)
  r[8] = kindOf(KEYS[1])
  r[9] = length - 1
  return r
end
-- Velocity limits (includes/velocity.lua), checked before the vote counts.
local vel = {}
if quorum and limited then vel = velocityCheck(KEYS[1], ARGV[6], tonumber(ARGV[2]), 7, rec[9]) end
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
  redis.call('HSET', KEYS[1], 'state', 'approved', 'view', 'approved', 'decidedBy', ARGV[1],
    'decidedAt', string.format('%.0f', rnow))
  local runAt = runAtOf(KEYS[1])
  if runAt > 0 then redis.call('HSET', KEYS[1], 'runAt', string.format('%.0f', runAt)) end
  redis.call('HDEL', KEYS[1], 'held')
  -- Its queued executions may now start (the ready index is what the reconciler and the freeze read).
  redis.call('ZADD', KEYS[6], ARGV[2], ARGV[6])
  if turns then redis.call('ZADD', turns, 'NX', ARGV[2], (turnMember(KEYS[5], ARGV[6]))) end
  if vel.ledger then
    -- +inf until it starts (never ages out while queued, paused or frozen);
    -- the FINISH script re-stamps it with its start time.
    ledgerPut(vel.ledger, vel.amounts, ARGV[6], '+inf', vel.units)
  end
  local length = redis.call('RPUSH', KEYS[2], ARGV[4], ARGV[5])
  redis.call('ZREM', KEYS[3], ARGV[6])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
  -- Wake a worker now. Only a wake: the start script decides (a runAt, the freeze, a batch's
  -- turn). A wake no worker takes (none runs this version, or it stopped) is made good by the
  -- voter's look a second later (app/decide.ts) or the reconciler; the list never grows past
  -- WAKE_KEEP, so one that no worker ever pops costs nothing.
  if redis.call('LPUSH', KEYS[9], ARGV[6]) > WAKE_KEEP then redis.call('LTRIM', KEYS[9], 0, WAKE_KEEP - 1) end
  local kind = kindOf(KEYS[1])
  local r = answer('approved', 'approved', #votes)
  r[8] = kind
  r[9] = length - 1
  return r
end
return answer('voted', 'pending', #votes)
