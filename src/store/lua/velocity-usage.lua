--[[
  Velocity headroom shown to people (store/controls.ts usage): what each window of the ledger
  holds at `now`, read as the vote reads it (includes/velocity.lua), the side chosen by the same
  function (includes/ledger.lua windowSide), so the cost follows the smaller side of each window's
  edge, never the whole ledger: the entries inside the window, or the ledger's running total less
  the entries before the edge. A ledger without a total (written by an older version), whose
  count is not the ledger's own, or whose total is past 2^53 (started by a sum in doubles) is read
  inside the window. A read: it writes nothing, prunes nothing (the vote does).
  KEYS[1] the ledger (sorted set: request id → start time, +inf until it starts)
  KEYS[2] its amounts hash (request id → minor units, '#total', '#count')
  ARGV[1] now (ms)    ARGV[2..] one window length (ms) per rule
  Returns one reply per window, in ARGV order: { 'in', units… } (the amounts inside the window)
    or { 'total', total, units… } (the total and the amounts before the edge), amounts as
    stored, so the app sums them exactly.
]]
-- @include "ledger"
local ledger, amounts = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local count, total, raw = ledgerKept(ledger, amounts)
local useTotal = total ~= nil and total < 2^53
local out = {}
for a = 2, #ARGV do
  local side, ids = windowSide(ledger, count, string.format('%.0f', now - tonumber(ARGV[a])), useTotal)
  local reply = side == 'in' and { 'in' } or { 'total', raw }
  -- A missing amount counts as 0.
  ledgerEach(amounts, ids, function(v) reply[#reply + 1] = v or '0' end)
  out[#out + 1] = reply
end
return out
