--[[
  The velocity ledger's running total: field '#total' of its amounts hash (store/velocity-lua.ts
  TOTAL_FIELD; a request id never starts with '#') holds the sum of every entry's minor units. Every
  script that changes an amount keeps it in the same step, so the vote sums a window without
  reading each entry (includes/velocity.lua). HINCRBY is an exact 64-bit integer. A ledger written
  before the total existed has none: every change skips it, and the next vote sums the ledger once
  to start it.
  KEYS: none of its own; every key comes as a parameter.
  ARGV: none.
  Returns: functions only.
    ledgerAdd(amounts, delta): the total moves by delta (when the ledger has one).
    ledgerPut(ledger, amounts, member, score, units): sets an entry.
    ledgerDrop(ledger, amounts, member): removes an entry and its amount (ledger nil: the amount only).
    ledgerSum(ledger, amounts, min, max) → the minor units of the entries scored in [min, max],
      one HMGET per 500 (Lua's unpack has a stack limit).
]]
local function ledgerAdd(amounts, delta)
  if delta ~= 0 and redis.call('HEXISTS', amounts, '#total') == 1 then
    redis.call('HINCRBY', amounts, '#total', string.format('%.0f', delta))
  end
end
local function ledgerPut(ledger, amounts, member, score, units)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  redis.call('ZADD', ledger, score, member)
  redis.call('HSET', amounts, member, units)
  ledgerAdd(amounts, tonumber(units) - was)
end
local function ledgerDrop(ledger, amounts, member)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  if ledger then redis.call('ZREM', ledger, member) end
  if redis.call('HDEL', amounts, member) == 1 then ledgerAdd(amounts, -was) end
end
local function ledgerSum(ledger, amounts, min, max)
  local ids = redis.call('ZRANGEBYSCORE', ledger, min, max)
  local sum = 0
  for i = 1, #ids, 500 do
    for _, v in ipairs(redis.call('HMGET', amounts, unpack(ids, i, math.min(i + 499, #ids)))) do
      sum = sum + (tonumber(v) or 0)
    end
  end
  return sum
end
