--[[
  Compare-and-delete: only the attempt that took the lock releases it.
  KEYS[1] the lock
  ARGV[1] the token that took it
  Returns 1 when released, 0 when another holds it (or none).
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0
