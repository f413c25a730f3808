--[[
  Adds every beneficiary, or none when any id is already present.
  KEYS[1] the beneficiaries hash
  ARGV id1, json1, id2, json2, …
  Returns the ids already present (empty: all were added).
]]
local taken = {}
for i = 1, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then taken[#taken + 1] = ARGV[i] end
end
if #taken == 0 then
  for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return taken
