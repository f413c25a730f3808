--[[
  Adds one balance snapshot, then trims both ways (by age and by count).
  KEYS[1] the wallet's sorted set
  ARGV[1] score               ARGV[3] keep-after score
  ARGV[2] member              ARGV[4] cap
  Returns 1.
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
return 1
