--[[
  A batch stops: approved | running | paused → stopping (its unsent rows are then cancelled).
  KEYS[1] approval            KEYS[2] history
  ARGV[1] history entry JSON
  Returns {1, state before} or {0, state}.
]]
-- @include "migrate"
migrateShape(KEYS[1])
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'approved' and s ~= 'running' and s ~= 'paused' then return {0, s or ''} end
redis.call('HSET', KEYS[1], 'state', 'stopping')
redis.call('RPUSH', KEYS[2], ARGV[1])
return {1, s}
