--[[
  The notice before run k of a live series is claimed once, whatever the number of workers and
  retries of its job (app/series/run-due.ts posts it only when this answers 1). In the same step
  the series gets the id its next run will take (`nextId`) when it has none, so the run's
  creation (series-run.lua) reads it with the series and allocates nothing.
  KEYS[1] series approval     KEYS[2] the approval sequence
  ARGV[1] k                   ARGV[2] the id letter and dash ('R-')
  ARGV[3] the sequence's offset (the first id's number)
  Returns 1 (claimed now) or 0 (claimed before, or the series is not live).
]]
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return 0 end
if redis.call('HEXISTS', KEYS[1], 'nextId') == 0 then
  redis.call('HSET', KEYS[1], 'nextId', ARGV[2] .. (tonumber(ARGV[3]) + redis.call('INCR', KEYS[2])))
end
return redis.call('HSETNX', KEYS[1], 'notice:' .. ARGV[1], '1')
