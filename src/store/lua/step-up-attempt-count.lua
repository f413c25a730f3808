--[[
  One attempt counted against a person or an address, in a window.
  KEYS[1] the counter
  ARGV[1] limit               ARGV[2] window ms
  Returns the count, or -1 over the limit.
]]
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then return -1 end
return n
