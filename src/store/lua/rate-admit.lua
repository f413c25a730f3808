--[[
  GCRA admission on one key, on Redis's own clock (store/rate-limiter.ts).
  KEYS[1] the limiter's theoretical-arrival-time key
  ARGV[1] interval ms         ARGV[3] now ms ('' = Redis TIME)
  ARGV[2] burst
  Returns 0 when admitted (and records it), else the milliseconds to wait.
]]
-- @include "gcra"
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
return gcraAdmit(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), now)
