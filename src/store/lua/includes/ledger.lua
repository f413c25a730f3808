--[[
  The velocity ledger's running total: field '#total' of its amounts hash (store/velocity-lua.ts
  TOTAL_FIELD; a request id never starts with '#') holds the sum of every entry's minor units. Every
  script that changes an amount keeps it in the same step, so the vote sums a window without
  reading each entry (includes/velocity.lua). HINCRBY is an exact 64-bit integer. '#count' holds
  the number of entries the total covers. A ledger written before the total existed has none:
  every change skips it, and the next vote sums the ledger once to start it; the vote sums it
  again whenever the count is not the ledger's own (an entry added or removed by a process of the
  previous version during a rolling deploy).
  KEYS: none of its own; every key comes as a parameter.
  ARGV: none.
  Returns: functions only.
    ledgerAdd(amounts, delta, entries): the total moves by delta and the count by entries (when
      the ledger has a total).
    ledgerPut(ledger, amounts, member, score, units): sets an entry.
    ledgerDrop(ledger, amounts, member): removes an entry and its amount (ledger nil: the amount only).
    ledgerKept(ledger, amounts) → count, total, raw: the ledger's ZCARD and the running total it
      keeps (raw: as stored), total nil when none is kept or it covers another count (an entry
      changed by a process of the previous version). The vote sums the ledger again then; the
      headroom read reads inside the windows.
    ledgerEach(amounts, ids, each): calls each(amount) for every id's amount as stored (false for
      none), one HMGET per 500 (Lua's unpack has a stack limit).
    ledgerSumOf(amounts, ids) → the minor units of those entries.
    ledgerSum(ledger, amounts, min, max) → the minor units of the entries scored in [min, max].
    windowSide(ledger, count, edge, useTotal) → 'in' or 'total', and the ids of the entries to
      read: a window (scores above `edge`) is read from whichever side of its edge holds fewer
      entries: the entries inside it ('in'), or the running total less the entries scored at or
      before the edge ('total'). `count` is the ledger's ZCARD; `useTotal` false (no total kept,
      a count not the ledger's own, a total past 2^53 where a double is no longer exact) always
      reads inside. Costs one ZCOUNT, and one ZRANGEBYSCORE only when the side read holds an
      entry (when every entry is recent, a window costs its ZCOUNT alone). The vote
      (includes/velocity.lua) and the headroom people see (velocity-usage.lua) both decide here.
]]
local function ledgerAdd(amounts, delta, entries)
  if (delta ~= 0 or entries ~= 0) and redis.call('HEXISTS', amounts, '#total') == 1 then
    -- Never format a zero: -0 would print as '-0', which HINCRBY refuses.
    if delta ~= 0 then redis.call('HINCRBY', amounts, '#total', string.format('%.0f', delta)) end
    if entries ~= 0 then redis.call('HINCRBY', amounts, '#count', entries) end
  end
end
local function ledgerPut(ledger, amounts, member, score, units)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  local added = redis.call('ZADD', ledger, score, member)
  redis.call('HSET', amounts, member, units)
  ledgerAdd(amounts, tonumber(units) - was, added)
end
local function ledgerDrop(ledger, amounts, member)
  local was = tonumber(redis.call('HGET', amounts, member)) or 0
  local removed = ledger and redis.call('ZREM', ledger, member) or 0
  redis.call('HDEL', amounts, member)
  ledgerAdd(amounts, -was, -removed)
end
local function ledgerKept(ledger, amounts)
  local count = redis.call('ZCARD', ledger)
  local kept = redis.call('HMGET', amounts, '#total', '#count')
  local total = tonumber(kept[1])
  if total and tonumber(kept[2]) == count then return count, total, kept[1] end
  return count, nil, nil
end
local function ledgerEach(amounts, ids, each)
  for i = 1, #ids, 500 do
    for _, v in ipairs(redis.call('HMGET', amounts, unpack(ids, i, math.min(i + 499, #ids)))) do each(v) end
  end
end
local function ledgerSumOf(amounts, ids)
  local sum = 0
  ledgerEach(amounts, ids, function(v) sum = sum + (tonumber(v) or 0) end)
  return sum
end
local function ledgerSum(ledger, amounts, min, max)
  return ledgerSumOf(amounts, redis.call('ZRANGEBYSCORE', ledger, min, max))
end
local function windowSide(ledger, count, edge, useTotal)
  local before = redis.call('ZCOUNT', ledger, '-inf', edge)
  if not useTotal or count - before <= before then
    return 'in', (count - before > 0) and redis.call('ZRANGEBYSCORE', ledger, '(' .. edge, '+inf') or {}
  end
  return 'total', (before > 0) and redis.call('ZRANGEBYSCORE', ledger, '-inf', edge) or {}
end
