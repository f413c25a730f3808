--[[
  Unsent executions of an approved approval cancelled, one page per call (unfreeze-cancel, a
  batch's stop, BATCH_HOLD_LIMIT). Each cancelled row of a batch gives its own units back here,
  once; a single's whole reservation leaves the ledger here too, as window-cancel.lua releases it.
  Both read what the approval stores (includes/give-back.lua), as the start's cancel does.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution 1         KEYS[6] open set
  KEYS[7..15] the 9 view indexes
  KEYS[16] the wallets' turns          KEYS[17] a batch's given-back set
  KEYS[18..] the page's executions
  (store/script-keys.ts cancelQueuedKeys builds them from names.)
  ARGV[1] approval id         ARGV[4] approval fields JSON for done
  ARGV[2] history entry JSON  ARGV[5] execution 1's fields JSON (its masked call; a single's only)
  ARGV[3] now (ms)            ARGV[6] the velocity ledger key prefix (store-keys.ts ledgerPrefix)
  ARGV[7] the approval's subject as the caller read it from the sealed request ('' for none; used
    only when the approval has no `velocity` field: includes/give-back.lua)
  ARGV[8] JSON list of the page's execution ids, aligned with KEYS[18..]
  Returns {cancelled, approval state before, kind, seq, viewChanged}, or {0, state}.
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
-- @include "give-back"
-- @include "cancel-unsent"
local now = tonumber(ARGV[3])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], now)
local as = redis.call('HGET', KEYS[1], 'state')
if as ~= 'approved' and as ~= 'running' and as ~= 'paused' and as ~= 'stopping' then return {0, as or ''} end
local shape = shapeOf(KEYS[1])
local batch = shape == 'batch'
local ids = cjson.decode(ARGV[8])
-- Each row cancelled gives its own velocity back in this step, never in a second round trip a
-- worker could die before. A single's execution 1 was queued, so its reservation is still the
-- quorum's (+inf, never re-stamped by a start): it leaves the ledger.
local reserved = reservedLedger(KEYS[1], ARGV[6], ARGV[7])
local n = cancelRows(18, function(k)
  cancelGiveBack(reserved, KEYS[17 + k], KEYS[17], ARGV[1], ids[k], shape)
end)
if n == 0 then
  if batch then
    settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
    leaveTurn(KEYS[1], KEYS[16], KEYS[3], ARGV[1])
  end
  return {0, as}
end
local seq, changed = cancelledEnd(n, batch, now)
return {n, as, kindOf(KEYS[1]), seq, changed and 1 or 0}
