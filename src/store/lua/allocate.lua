--[[
  A new approval number and Redis's clock at that moment (the base of a create deadline).
  KEYS[1] the sequence
  ARGV: none.
  Returns { sequence number, Redis time in ms }.
]]
-- @include "redis-now"
return {redis.call('INCR', KEYS[1]), now}
