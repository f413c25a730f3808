--[[
  A batch pauses with a reason (the funding check): approved | running → paused.
  KEYS[1] approval            KEYS[2] history
  ARGV[1] reason              ARGV[2] history entry JSON
  Returns {1, state before} or {0, state}.
]]
-- @include "migrate"
migrateShape(KEYS[1])
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'approved' and s ~= 'running' then return {0, s or ''} end
redis.call('HSET', KEYS[1], 'state', 'paused', 'pausedWhy', ARGV[1])
redis.call('HDEL', KEYS[1], 'funded')
redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, s}
