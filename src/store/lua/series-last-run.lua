--[[
  A live series whose every run is settled (created or skipped) ends: it creates nothing more,
  leaves the open set, and its history says so. Its last run, created, goes on as any approved
  payment (unlike series-end.lua, which cancels an unsent run). A no-op while any run is unsettled.
  KEYS[1] series approval     KEYS[3] open set
  KEYS[2] series history
  ARGV[1] the number of runs sealed    ARGV[2] the series' history entry JSON
  ARGV[3] the series' id
  Returns {'ended'}, {'runs_left', first unsettled k} or {'not_live', state}.
]]
-- @include "redis-now"
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'live' then return {'not_live', state or ''} end
for k = 1, tonumber(ARGV[1]) do
  if redis.call('HEXISTS', KEYS[1], 'run:' .. k) == 0 then return {'runs_left', tostring(k)} end
end
redis.call('HSET', KEYS[1], 'state', 'ended', 'endedAt', tostring(now))
redis.call('SREM', KEYS[3], ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[2])
return {'ended'}
