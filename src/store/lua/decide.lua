--[[
  A pending approval decided without running: denied, cancelled or expired; its executions are
  cancelled with it.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution 1         KEYS[6] open set
  KEYS[7..15] the 9 view indexes; KEYS[16..] every execution
  ARGV[1] to ('denied', 'cancelled', 'expired')
  ARGV[2] history entry JSON  ARGV[4] now (ms)
  ARGV[3] approval fields JSON  ARGV[5] approval id
  ARGV[6] execution 1's fields JSON (its masked call)
  Returns {1, 'pending', kind, seq} or {0, view}.
]]
-- @include "approval"
-- @include "migrate"
local now = tonumber(ARGV[4])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[5], now)
local s = redis.call('HGET', KEYS[1], 'state')
if not s then return {0, ''} end
if s ~= 'pending' then return {0, redis.call('HGET', KEYS[1], 'view')} end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
setFields(KEYS[1], ARGV[3])
cancelQueued(KEYS[1], 16)
setFields(KEYS[3], ARGV[6])
redis.call('SREM', KEYS[6], ARGV[5])
reindex(KEYS[1], 7, ARGV[5], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, 'pending', kindOf(KEYS[1]), seq}
