--[[
  The funding check passed: the batch's rows may start (start.lua checks the mark).
  KEYS[1] approval
  ARGV: none.
  Returns {1, state} or {0, state} when the batch is not approved or running.
]]
-- @include "migrate"
migrateShape(KEYS[1])
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'approved' and s ~= 'running' then return {0, s or ''} end
redis.call('HSET', KEYS[1], 'funded', '1')
return {1, s}
