--[[
  A paused batch resumes: paused → running.
  KEYS[1] approval            KEYS[3] ready index
  KEYS[2] history
  ARGV[1] approval id         ARGV[3] now (ms)
  ARGV[2] history entry JSON
  Returns {1, state before} or {0, state}.
]]
-- @include "migrate"
migrateShape(KEYS[1])
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'paused' then return {0, s or ''} end
-- A resumed batch checks its funding again and starts a fresh run of failures.
redis.call('HSET', KEYS[1], 'state', 'running', 'failRun', '0')
redis.call('HDEL', KEYS[1], 'funded', 'pausedWhy')
if tonumber(redis.call('HGET', KEYS[1], 'c:queued') or '0') > 0 then redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1]) end
redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, s}
