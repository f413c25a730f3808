--[[
  One vote on an unfreeze proposal; the choice with enough votes decides it.
  KEYS[1] proposal            KEYS[2] freeze
  ARGV[1] proposal id         ARGV[3] choice
  ARGV[2] user                ARGV[4] required votes
  Returns {'not_frozen'}, {'stale'}, {'voted', count} or {'decided', choice, '1' when this vote decided}.
]]
if redis.call('EXISTS', KEYS[2]) == 0 then return {'not_frozen'} end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return {'stale'} end
local decided = redis.call('HGET', KEYS[1], 'decided')
if decided then return {'decided', decided, '0'} end
redis.call('HSET', KEYS[1], 'vote:' .. ARGV[2], ARGV[3])
local n = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 5) == 'vote:' and all[i + 1] == ARGV[3] then n = n + 1 end
end
if n >= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'decided', ARGV[3])
  return {'decided', ARGV[3], '1'}
end
return {'voted', tostring(n)}
