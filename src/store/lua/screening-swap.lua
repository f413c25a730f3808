--[[
  Swaps the sanctions list filled at `next` in for the current one, under the loader's lease
  (store/screening.ts): one loader at a time; the start script reads the fixed list key only, so
  it sees the old list or the new one, never half of either.
  KEYS[1] the list            KEYS[4] the lease
  KEYS[2] its meta            KEYS[5] the history (the list's audit trail, last 200 entries)
  KEYS[3] next
  ARGV[1] lease token         ARGV[4] '1' to accept removals
  ARGV[2] publication date (YYYY-MM-DD)   ARGV[5] history entry JSON (without `removed`)
  ARGV[3] meta fields JSON
  Returns {'loaded', removed count, removed…}, {'older', current date}, {'removals', count,
  first few…} or {'lease'} (the lease was lost: nothing changed). A refusal drops `next`.
]]
if redis.call('GET', KEYS[4]) ~= ARGV[1] then redis.call('DEL', KEYS[3]) return {'lease'} end
local current = redis.call('HGET', KEYS[2], 'published')
if current and ARGV[2] < current then
  redis.call('DEL', KEYS[3])
  return {'older', current}
end
local removed = {}
if redis.call('EXISTS', KEYS[1]) == 1 then removed = redis.call('SDIFF', KEYS[1], KEYS[3]) end
local entry = cjson.decode(ARGV[5])
if #removed > 0 and ARGV[4] ~= '1' then
  redis.call('DEL', KEYS[3])
  entry.event = 'refused-removals'
  entry.removedCount = #removed
  redis.call('RPUSH', KEYS[5], cjson.encode(entry))
  return {'removals', tostring(#removed), unpack(removed, 1, math.min(#removed, 5))}
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('RENAME', KEYS[3], KEYS[1]) else redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
for k, v in pairs(cjson.decode(ARGV[3])) do redis.call('HSET', KEYS[2], k, v) end
if #removed > 0 then entry.removed = removed end
redis.call('RPUSH', KEYS[5], cjson.encode(entry))
redis.call('LTRIM', KEYS[5], -200, -1)
local out = {'loaded', tostring(#removed)}
for _, r in ipairs(removed) do out[#out + 1] = r end
return out
