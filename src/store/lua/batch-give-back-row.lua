--[[
  A batch row the start script cancelled for screening gives back its own units, once (the given
  set remembers it, as every row's give-back).
  KEYS[1] the ledger's amounts (hash)    KEYS[2] the batch's given-back set
  ARGV[1] approval id    ARGV[2] row (execution) id    ARGV[3] the row's units
  Returns 1 when the units went back, 0 when they already had (or nothing was reserved).
]]
-- @include "batch"
return giveBack(KEYS[1], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3]))
