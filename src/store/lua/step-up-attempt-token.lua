--[[
  One attempt on a step-up link's token, counted.
  KEYS[1] the token
  ARGV[1] the per-token limit
  Returns { 'ok'|'invalid'|'token-limit', data }.
]]
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return {'invalid', ''} end
if redis.call('HINCRBY', KEYS[1], 'attempts', 1) > tonumber(ARGV[1]) then return {'token-limit', data} end
return {'ok', data}
