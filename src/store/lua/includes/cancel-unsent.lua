--[[
  Cancelling an approved approval's unsent executions, shared by cancel-queued.lua (a page per
  call: the freeze's cancel, a batch's stop, BATCH_HOLD_LIMIT) and window-cancel.lua (every
  execution at once, inside a wait). Both take the same leading KEYS and ARGV, so the helpers
  read them in place.
  KEYS: the callers' shared layout: KEYS[1] approval, [2] history, [3] execution 1, [4] ready
    index, [6] open set, [7..15] the 9 view indexes (domain/approval.ts VIEW_STATES order), [16]
    the wallets' turns, [first..] the executions to cancel.
  ARGV: the callers' shared layout: ARGV[1] approval id, [2] history entry JSON, [3] now (ms),
    [4] approval fields JSON for done, [5] execution 1's fields JSON (its masked call; a single's
    only), [6] the velocity ledger key prefix (store-keys.ts ledgerPrefix), [7] the approval's
    subject as the caller read it from the sealed request ('' for none; used only when the
    approval has no `velocity` field: includes/give-back.lua).
  Returns: functions only (the callers cancel the rows with includes/approval.lua cancelRows and
    give the velocity reservation back with includes/give-back.lua, in the same step).
    cancelledEnd(n, turn, now) → seq, viewChanged: after n executions were cancelled: the counts,
      the ready index once nothing is queued, a single's execution 1 masked as every final move
      does, the approval done when nothing is left, the wallet's turn left when `turn`, the view
      and the history entry, in the caller's step.
]]
-- @include "approval"
-- @include "batch"
local function cancelledEnd(n, turn, now)
  if count(KEYS[1], 'queued', -n) <= 0 then redis.call('ZREM', KEYS[4], ARGV[1]) end
  count(KEYS[1], 'cancelled', n)
  -- The final state masks the personal data execution 1 keeps too (a batch's rows keep their own
  -- calls: the approval's call describes the total).
  if shapeOf(KEYS[1]) ~= 'batch' and redis.call('HGET', KEYS[3], 'state') == 'cancelled' then
    setFields(KEYS[3], ARGV[5])
  end
  settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
  if turn then leaveTurn(KEYS[1], KEYS[16], KEYS[3], ARGV[1]) end
  local _, changed = reindex(KEYS[1], 7, ARGV[1], now)
  return redis.call('RPUSH', KEYS[2], ARGV[2]), changed
end
