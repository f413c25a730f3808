--[[
  The token goes and the passkey's counter moves only together; a counter that did not grow
  (both 0 is allowed: some authenticators keep none) or a passkey revoked meanwhile refuses both.
  KEYS[1] the token           KEYS[2] the owner's passkey counters
  ARGV[1] credential id       ARGV[2] new counter
  Returns 'ok', 'gone', 'no-passkey' or 'counter'.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if not old then return 'no-passkey' end
local o, n = tonumber(old), tonumber(ARGV[2])
if (o ~= 0 or n ~= 0) and n <= o then return 'counter' end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 'ok'
