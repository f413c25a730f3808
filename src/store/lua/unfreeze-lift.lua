--[[
  Lifts the freeze. A cancel lifts only once nothing is left approved (a request the freeze
  held must never run after its cancel was chosen).
  KEYS[1] freeze              KEYS[3] approved-state index
  KEYS[2] proposal
  ARGV[1] choice
  Returns 'lifted' or 'retry'.
]]
-- Time: an approval waiting for its runAt (Redis TIME) is not held by the freeze, so a cancel
-- leaves it and it does not keep the freeze on (its approval key is the ready key's sibling).
-- @include "redis-now"
local function held()
  local base = string.sub(KEYS[3], 1, -6)
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if (tonumber(redis.call('HGET', base .. id, 'runAt') or '0') or 0) <= now then return true end
  end
  return false
end
if ARGV[1] == 'cancel' and held() then return 'retry' end
redis.call('DEL', KEYS[1], KEYS[2])
return 'lifted'
