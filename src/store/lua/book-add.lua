--[[
  Records the entries of an approved address-book addition, all or none: a key already live in
  the book refuses the whole addition. Each entry cools off from Redis's clock. When the addition
  is the book's open seed (book-seed.lua), the book is seeded in the same step: only an approved
  seed changes the default mode, never a denied or expired one.
  KEYS[1] the entry sequence    KEYS[3] removed keys (key → last removed id)
  KEYS[2] the live index (key → id)   KEYS[4] every entry by approval time
  KEYS[5] the open-seed marker  KEYS[6] the seeded flag
  ARGV[1] cooldown ms  ARGV[2] added by  ARGV[3] approved by  ARGV[4] request id
  ARGV[5] the entry hash prefix (`<prefix>:book:entry:`, same slot)
  ARGV[6..] per entry: destination key, name, chain, address, wallets field
  Returns {1, usableAt, id…} or {0, taken key…}.
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local taken = {0}
for i = 6, #ARGV, 5 do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then taken[#taken + 1] = ARGV[i] end
end
if #taken > 1 then return taken end
local usable = now + tonumber(ARGV[1])
local out = {1, tostring(usable)}
for i = 6, #ARGV, 5 do
  local id = 'A-' .. redis.call('INCR', KEYS[1])
  redis.call('HSET', ARGV[5] .. id, 'id', id, 'key', ARGV[i], 'name', ARGV[i + 1], 'chain', ARGV[i + 2],
    'address', ARGV[i + 3], 'wallets', ARGV[i + 4], 'addedBy', ARGV[2], 'approvedBy', ARGV[3],
    'requestId', ARGV[4], 'approvedAt', tostring(now), 'usableAt', tostring(usable))
  redis.call('HSET', KEYS[2], ARGV[i], id)
  redis.call('HDEL', KEYS[3], ARGV[i])
  redis.call('ZADD', KEYS[4], now, id)
  out[#out + 1] = id
end
if redis.call('GET', KEYS[5]) == ARGV[4] then
  redis.call('SET', KEYS[6], '1')
  redis.call('DEL', KEYS[5])
end
return out
