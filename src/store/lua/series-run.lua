--[[
  One run of a live series becomes an approval of its own, created `approved`, at most once
  whatever the number of workers: the run key `S-n:k` is claimed in the same step (DESIGN
  "States, ids and hashes"). The run carries the series' requester, votes and quorum, its own
  decidedAt and runAt (Redis TIME), and exactly the call the series sealed (`runCall`,
  `runSeal`, `runDest`, written by create.lua): the app passes no call. Its velocity is reserved
  here, as the vote reserves a single request's; a run that does not fit is skipped, never
  created, and the skip is recorded on the series.
  KEYS[1] series approval     KEYS[6] ready index
  KEYS[2] series history      KEYS[7] approved-state index
  KEYS[3] run approval        KEYS[8] recent index
  KEYS[4] run history         KEYS[9] open set
  KEYS[5] run execution 1     KEYS[10] the run key S-n:k (holds the run's id, or 'skipped')
  KEYS[11] the freeze flag    KEYS[12] the series held by a freeze (a set the unfreeze wakes)
  KEYS[13] the approval sequence (the next run's id is taken from it once this run is created)
  KEYS[14] the series index (store/store-keys.ts StoreKeys.series): a live series joins it here
    too, scored as create.lua scores it
  ARGV[1] k                   ARGV[4] history entry JSON of the run's creation
  ARGV[2] the run's id        ARGV[5] history entry JSON for the series (the run created)
  ARGV[3] the run's sealed request JSON (stored as `frozen`)
  ARGV[6] the series' history entry JSON when the run is skipped (velocity, or today's rules)
  ARGV[7] what today's rules refuse the run ('' for nothing: domain/rules/series.ts
    runRecheckRule): the run is skipped and the series paused in this step, under the claim
  ARGV[8] the id letter and dash ('R-')   ARGV[9] the sequence's offset (the first id's number)
  ARGV[10] the series' id
  ARGV[11] the run's sealed time (ms): its runAt is the later of it and Redis TIME, so a worker
    whose clock runs ahead creates it early at worst, and the start script (start.lua) still
    starts nothing before its time, on Redis's clock
  ARGV[12] the sentence a skipped run's mark keeps (its `why`: today's rules' refusal, or over a
    velocity limit), which the series' thread says (app/notices/notify.ts)
  With VELOCITY_LIMITS set: ARGV[13..] as vote.lua's ARGV[7..] (includes/velocity.lua), read
    from the series' `velocity` field (the subject of one run).
  The series keeps the id its next run will take (`nextId`), so the worker that creates a run
  reads it with the series and allocates nothing (two Redis round trips from due to queued).
  Returns {'created', run id}, {'exists', run id} (created before), {'skipped', why} (skipped
    before: by a person or a failed check), {'not_live', state}, {'paused'}, {'frozen'} (not
    created: Rampart is frozen; the series is held until the unfreeze wakes it),
    {'retry', next id} (the id passed is taken: call again with this one, '' to allocate),
    {'over_limit', rule index, used} (the run is now skipped) or {'paused_now', code, why} (today's
    rules refused it: skipped, and the series paused until a fresh approval).
]]
-- @include "redis-now"
-- @include "velocity"
-- @include "series-index"
local claim = redis.call('GET', KEYS[10])
if claim == 'skipped' then
  local mark = redis.call('HGET', KEYS[1], 'run:' .. ARGV[1])
  return {'skipped', mark and cjson.decode(mark).why or ''}
end
if claim then return {'exists', claim} end
-- A worker that read the series before another created its last run holds that run's id.
if redis.call('EXISTS', KEYS[3]) == 1 then return {'retry', redis.call('HGET', KEYS[1], 'nextId') or ''} end
local s = redis.call('HMGET', KEYS[1], 'state', 'paused', 'requester', 'required', 'votes', 'decidedBy', 'kind',
  'runCall', 'runSeal', 'runDest', 'stepUp', 'velocity')
if s[1] ~= 'live' then return {'not_live', s[1] or ''} end
-- Listed even when created and approved by processes of the previous version
-- (includes/series-index.lua).
seriesIndexAdd(KEYS[14], ARGV[10])
if s[2] == '1' then return {'paused'} end
-- No run is created while frozen (as no vote lands): it waits for the unfreeze (app/freeze.ts).
if redis.call('EXISTS', KEYS[11]) == 1 then
  redis.call('SADD', KEYS[12], ARGV[10])
  local held = tonumber(redis.call('HGET', KEYS[1], 'held') or '0')
  if tonumber(ARGV[1]) > held then redis.call('HSET', KEYS[1], 'held', ARGV[1]) end
  return {'frozen'}
end
local function skip()
  redis.call('SET', KEYS[10], 'skipped')
  redis.call('HSET', KEYS[1], 'run:' .. ARGV[1], cjson.encode({ k = tonumber(ARGV[1]), status = 'skipped', why = ARGV[12] }))
end
if ARGV[7] ~= '' then
  skip()
  redis.call('HSET', KEYS[1], 'paused', '1')
  redis.call('RPUSH', KEYS[2], ARGV[6])
  return {'paused_now', ARGV[7], ARGV[12]}
end
if ARGV[13] ~= nil then
  local vel = velocityCheck(KEYS[1], ARGV[2], now, 13)
  if vel.refused == 'over_limit' then
    skip()
    redis.call('RPUSH', KEYS[2], ARGV[6])
    return {'over_limit', vel.index, vel.used}
  end
  if vel.refused then return {vel.refused} end
  if vel.ledger then
    -- As the vote reserves (+inf until it starts), keeping the ledger's running total (includes/ledger.lua).
    ledgerPut(vel.ledger, vel.amounts, ARGV[2], '+inf', vel.units)
  end
end
local id = ARGV[2]
local runAt = string.format('%.0f', math.max(now, tonumber(ARGV[11]) or 0))
redis.call('HSET', KEYS[3], 'frozen', ARGV[3], 'state', 'approved', 'view', 'approved', 'requester', s[3],
  'required', s[4], 'votes', s[5], 'decidedBy', s[6], 'decidedAt', tostring(now), 'runAt', runAt,
  'expiresAt', tostring(now), 'kind', s[7], 'shape', 'single', 'v', '3', 'n', '1', 'c:queued', '1',
  'velocity', s[12] or 'none', 'series', ARGV[10], 'run', ARGV[1])
if s[11] == '1' then redis.call('HSET', KEYS[3], 'stepUp', '1') end
redis.call('HSET', KEYS[5], 'v', '2', 'state', 'queued', 'approval', id, 'n', '1', 'call', s[8],
  'sealHash', s[9], 'tries', '0')
if s[10] and s[10] ~= '' then redis.call('HSET', KEYS[5], 'dest', s[10]) end
redis.call('RPUSH', KEYS[4], ARGV[4])
redis.call('ZADD', KEYS[6], now, id)
redis.call('ZADD', KEYS[7], now, id)
redis.call('ZADD', KEYS[8], now, id)
redis.call('SADD', KEYS[9], id)
redis.call('SET', KEYS[10], id)
-- The end script cancels this run while it is unsent: it names the run it saw (series-end.lua).
redis.call('HSET', KEYS[1], 'lastRun', id)
local nextId = redis.call('HGET', KEYS[1], 'nextId')
if not nextId or nextId == id then
  redis.call('HSET', KEYS[1], 'nextId', ARGV[8] .. (tonumber(ARGV[9]) + redis.call('INCR', KEYS[13])))
end
redis.call('HSET', KEYS[1], 'run:' .. ARGV[1], cjson.encode({ k = tonumber(ARGV[1]), status = 'created', id = id }))
redis.call('RPUSH', KEYS[2], ARGV[5])
return {'created', id}
