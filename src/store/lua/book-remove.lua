--[[
  Removes an address-book entry at once. The index forgets the key only while it still names
  this entry; the removed keys remember it, so the address is refused until added again.
  KEYS[1] the entry   KEYS[2] the live index   KEYS[3] removed keys
  ARGV[1] entry id    ARGV[2] removed by
  Returns 1, or 0 when there is no such live entry.
]]
local f = redis.call('HMGET', KEYS[1], 'id', 'removedAt', 'key')
if not f[1] or f[1] ~= ARGV[1] or f[2] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'removedAt', tostring(now), 'removedBy', ARGV[2])
if redis.call('HGET', KEYS[2], f[3]) == ARGV[1] then redis.call('HDEL', KEYS[2], f[3]) end
redis.call('HSET', KEYS[3], f[3], ARGV[1])
return 1
