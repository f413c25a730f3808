--[[
  GCRA admission on one key, on Redis's own clock (store/rate-limiter.ts).
  KEYS[1] the limiter's theoretical-arrival-time key
  ARGV[1] interval ms         ARGV[3] now ms ('' = Redis TIME)
  ARGV[2] burst
  Returns 0 when admitted (and records it), else the milliseconds to wait.
]]
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat - tolerance > now then return math.ceil(tat - tolerance - now) end
redis.call('SET', KEYS[1], string.format('%.0f', tat + interval), 'PX', math.ceil(tolerance + interval) + 1000)
return 0
