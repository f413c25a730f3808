--[[
  Unsent executions of an approved approval cancelled, one page per call (unfreeze-cancel, a
  batch's stop, BATCH_HOLD_LIMIT). Each cancelled row of a batch gives its own units back here,
  once; a single's whole reservation leaves the ledger here too, as window-cancel.lua releases it.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution 1         KEYS[6] open set
  KEYS[7..15] the 9 view indexes
  KEYS[16] a batch's given-back set    KEYS[17] the ledger's amounts (or the given-back set)
  KEYS[18] the wallets' turns
  KEYS[19] a single's velocity ledger (KEYS[17] its amounts), or the given-back set: none
  KEYS[20..] the page's executions
  (store/script-keys.ts cancelQueuedKeys builds them from names.)
  ARGV[1] approval id         ARGV[4] approval fields JSON for done
  ARGV[2] history entry JSON  ARGV[5] execution 1's fields JSON (its masked call; a single's only)
  ARGV[3] now (ms)            ARGV[6] JSON list of [execution id, units] per page row (read
    for a batch only)
  Returns {cancelled, approval state before, kind, seq, viewChanged}, or {0, state}.
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
-- @include "cancel-unsent"
local now = tonumber(ARGV[3])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], now)
local as = redis.call('HGET', KEYS[1], 'state')
if as ~= 'approved' and as ~= 'running' and as ~= 'paused' and as ~= 'stopping' then return {0, as or ''} end
local batch = shapeOf(KEYS[1]) == 'batch'
local units = (batch and ARGV[6] ~= '') and cjson.decode(ARGV[6]) or nil
local n = cancelRows(20, units and function(k)
  local row = units[k]
  if row then giveBack(KEYS[17], KEYS[16], ARGV[1], row[1], tonumber(row[2])) end
end)
if n == 0 then
  if units then
    settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
    leaveTurn(KEYS[1], KEYS[18], KEYS[3], ARGV[1])
  end
  return {0, as}
end
-- A single's execution 1 was queued, so its reservation is still the quorum's (+inf, never
-- re-stamped by a start): it leaves the ledger in this step, never in a second round trip a
-- worker could die before.
if not batch and KEYS[19] ~= KEYS[16] then ledgerDrop(KEYS[19], KEYS[17], ARGV[1]) end
local seq, changed = cancelledEnd(n, units ~= nil, now)
return {n, as, kindOf(KEYS[1]), seq, changed and 1 or 0}
