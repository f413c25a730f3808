--[[
  GCRA admission on one key (store/rate-limiter.ts): the pace shared by every process, on
  Redis's own clock.
  KEYS: none of its own; the limiter's key comes as a parameter.
  ARGV: none.
  Returns: gcraAdmit(key, interval ms, burst, now ms): 0 when admitted (and recorded), else the
    milliseconds to wait (nothing recorded).
]]
local function gcraAdmit(key, interval, burst, now)
  local tolerance = interval * (burst - 1)
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  if tat - tolerance > now then return math.ceil(tat - tolerance - now) end
  redis.call('SET', key, string.format('%.0f', tat + interval), 'PX', math.ceil(tolerance + interval) + 1000)
  return 0
end
