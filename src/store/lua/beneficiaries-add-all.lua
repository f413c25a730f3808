--[[
  Adds every beneficiary, or none when any id is already present. With a cooling-off, each one
  added is new and cools off from Redis's clock (read by the start script: includes/book.lua).
  KEYS[1] the beneficiaries hash   KEYS[2] the cooling hash (id → {"approvedAt","usableAt"} JSON)
  ARGV[1] the cooling-off in ms ('' for none), then id1, json1, id2, json2, …
  Returns the ids already present (empty: all were added).
]]
local taken = {}
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then taken[#taken + 1] = ARGV[i] end
end
if #taken == 0 then
  local cooling = tonumber(ARGV[1])
  local now
  if cooling and cooling > 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  for i = 2, #ARGV, 2 do
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    if now then
      redis.call('HSET', KEYS[2], ARGV[i], string.format('{"approvedAt":%.0f,"usableAt":%.0f}', now, now + cooling))
    end
  end
end
return taken
