--[[
  A live series' run came due while Rampart is frozen: it is not created, and the series is
  held (the unfreeze wakes every held series: app/freeze.ts). Checked against the flag in the same
  step, so a freeze lifted just before finds nothing held and the run is created as usual.
  KEYS[1] series approval     KEYS[3] the series held by a freeze (a set)
  KEYS[2] the freeze flag
  ARGV[1] k, the run due      ARGV[2] the series' id
  Returns 1 (held: frozen) or 0 (not frozen).
]]
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('SADD', KEYS[3], ARGV[2])
local held = tonumber(redis.call('HGET', KEYS[1], 'held') or '0')
if tonumber(ARGV[1]) > held then redis.call('HSET', KEYS[1], 'held', ARGV[1]) end
return 1
