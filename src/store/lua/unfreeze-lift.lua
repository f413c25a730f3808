--[[
  Lifts the freeze. A cancel lifts only once nothing is left approved (a request the freeze
  held must never run after its cancel was chosen).
  KEYS[1] freeze              KEYS[3] approved-state index
  KEYS[2] proposal
  ARGV[1] choice
  Returns 'lifted' or 'retry'.
]]
if ARGV[1] == 'cancel' and redis.call('ZCARD', KEYS[3]) > 0 then return 'retry' end
redis.call('DEL', KEYS[1], KEYS[2])
return 'lifted'
