--[[
  A request that ended `failed` (or was cancelled after approval) gives its headroom back: its
  entry leaves the ledger with its share of the running total (includes/ledger.lua).
  KEYS[1] the velocity ledger       KEYS[2] its amounts
  ARGV[1] request id
  Returns nothing.
]]
-- @include "ledger"
ledgerDrop(KEYS[1], KEYS[2], ARGV[1])
