--[[
  Redis's own clock in ms, so a deadline never depends on the web host's clock.
  KEYS: none. ARGV: none.
  Returns: nothing; defines the local `now` (ms).
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
