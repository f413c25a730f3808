--[[
  Compare-and-set of one stored passkey.
  KEYS[1] the owner's hash
  ARGV[1] passkey id          ARGV[3] the JSON to store
  ARGV[2] the JSON expected
  Returns 1 when stored, 0 when it changed meanwhile.
]]
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
