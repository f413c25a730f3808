--[[
  Velocity headroom shown to people (store/controls.ts usage): what each window of the ledger
  holds at `now`, read as the vote reads it (includes/velocity.lua) so the cost follows the
  smaller side of each window's edge, never the whole ledger: the entries inside the window, or
  the ledger's running total (includes/ledger.lua) less the entries before the edge. A ledger
  without a total (written by an older version), whose count is not the ledger's own, or whose
  total is past 2^53 (started by a sum in doubles) is read inside the window. A read: it writes
  nothing, prunes nothing (the vote does).
  KEYS[1] the ledger (sorted set: request id → start time, +inf until it starts)
  KEYS[2] its amounts hash (request id → minor units, '#total', '#count')
  ARGV[1] now (ms)    ARGV[2..] one window length (ms) per rule
  Returns one reply per window, in ARGV order: { 'in', units… } (the amounts inside the window)
    or { 'total', total, units… } (the total and the amounts before the edge), amounts as
    stored, so the app sums them exactly.
]]
local ledger, amounts = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local count = redis.call('ZCARD', ledger)
local kept = redis.call('HMGET', amounts, '#total', '#count')
local total = tonumber(kept[1])
local useTotal = total ~= nil and tonumber(kept[2]) == count and total < 2^53
local out = {}
for a = 2, #ARGV do
  local edge = string.format('%.0f', now - tonumber(ARGV[a]))
  local before = redis.call('ZCOUNT', ledger, '-inf', edge)
  local reply, ids
  if not useTotal or count - before <= before then
    reply, ids = { 'in' }, redis.call('ZRANGEBYSCORE', ledger, '(' .. edge, '+inf')
  else
    reply, ids = { 'total', kept[1] }, redis.call('ZRANGEBYSCORE', ledger, '-inf', edge)
  end
  -- One HMGET per 500 (Lua's unpack has a stack limit); a missing amount counts as 0.
  for i = 1, #ids, 500 do
    for _, v in ipairs(redis.call('HMGET', amounts, unpack(ids, i, math.min(i + 499, #ids)))) do
      reply[#reply + 1] = v or '0'
    end
  end
  out[#out + 1] = reply
end
return out
