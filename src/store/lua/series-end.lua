--[[
  A live series ends (its requester or any approver), and in the same step its last run, when
  created but not sent, is cancelled (queued → cancelled, its velocity reservation given back),
  so an end that wins the race against the run's start sends nothing; an end that loses is told
  the run had started. No run is created after it (series-run.lua creates only for a live series).
  KEYS[1] series approval     KEYS[4..12] the 9 view indexes (the run's view moves)
  KEYS[2] series history      KEYS[13] the last run's approval (the series' own key when none)
  KEYS[3] open set            KEYS[14] its history   KEYS[15] its execution 1
  KEYS[16] ready index
  ARGV[1] the last run's id the caller read ('' for none): a run created since makes the script
    answer 'retry' with the id, since its keys must be passed
  ARGV[2] the series' history entry JSON   ARGV[3] the run's history entry JSON
  ARGV[4] the velocity ledger key prefix ('' without VELOCITY_LIMITS)
  ARGV[5] the series' id (it leaves the open set)
  Returns {'ended', run id, 'cancelled'|'started'|'none'}, {'retry', run id} or {'not_live', state}.
]]
-- @include "redis-now"
-- @include "approval"
-- @include "ledger"
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'live' then return {'not_live', state or ''} end
local last = redis.call('HGET', KEYS[1], 'lastRun') or ''
if last ~= ARGV[1] then return {'retry', last} end
local run = 'none'
if last ~= '' then
  if redis.call('HGET', KEYS[15], 'state') == 'queued' then
    redis.call('HSET', KEYS[15], 'state', 'cancelled')
    count(KEYS[13], 'queued', -1)
    count(KEYS[13], 'cancelled', 1)
    redis.call('ZREM', KEYS[16], last)
    settle(KEYS[13], KEYS[3], last, '')
    reindex(KEYS[13], 4, last, now)
    redis.call('RPUSH', KEYS[14], ARGV[3])
    -- Its reservation goes back with it (as includes/velocity.lua names the ledger).
    local field = redis.call('HGET', KEYS[13], 'velocity')
    if ARGV[4] ~= '' and field and field ~= '' and field ~= 'none' then
      local s = cjson.decode(field)
      local ledger = ARGV[4] .. s.walletId .. ':' .. s.code
      ledgerDrop(ledger, ledger .. ':amounts', last)
    end
    run = 'cancelled'
  else
    run = 'started'
  end
end
redis.call('HSET', KEYS[1], 'state', 'ended', 'endedAt', tostring(now))
redis.call('SREM', KEYS[3], ARGV[5])
redis.call('RPUSH', KEYS[2], ARGV[2])
return {'ended', last, run}
