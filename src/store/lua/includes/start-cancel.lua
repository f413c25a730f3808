--[[
  The start's one cancel (start.lua): a queued execution the start may never run — its
  destination refused by screening (includes/screening.lua), its address-book entry gone or not
  allowing the wallet, a cooling-off waited out, or a batch row still cooling (includes/book.lua)
  — becomes cancelled in the start's own step: its velocity reservation given back, a batch
  paused on the row and leaving its wallet's turn once done, the approval settled, and, like every
  other final move (finish.lua, cancel-queued.lua, window-cancel.lua), the personal data the
  record keeps masked: the sealed request and a single's execution 1 copy of the call. Nothing
  is half done if a worker dies after the script.
  KEYS: none of its own; start.lua's (KEYS[1] approval, [2] history, [3] execution, [4] ready,
    [7..15] the views, [17] the wallets' turns, [18] execution 1, [21] the open set, [22] the
    batch's given-back set).
  ARGV: none of its own; start.lua's ([1] execution id, [2] approval id, [10] the velocity ledger
    key prefix, [13] the approval's masked fields JSON ('' when the caller has not read it yet),
    [14] execution 1's masked fields JSON, [15] the velocity subject read with them: the
    give-back's fallback for a record without its `velocity` field).
  Returns: functions only.
    startCancel(why, code, as, shape, at): with ARGV[13] '' nothing changes and it returns
      {3, 'mask', the approval's sealed JSON} (the caller masks it and starts again); otherwise
      queued → cancelled as above (the give-back is includes/give-back.lua cancelGiveBack),
      returning START's {2, 'cancelled', kind, seq, why, code, view, viewChanged, shape}.
      `as` is the approval's state before, `shape` its shape as start.lua read it, `at` the time
      recorded (history, view scores).
]]
-- @include "approval"
-- @include "batch"
-- @include "give-back"
local function startCancel(why, code, as, shape, at)
  -- The masked copy is made by the caller (domain/redact.ts: the hash of the original call is
  -- SHA-256, which Redis's Lua lacks); asked for only on this rare path, never on every start.
  if (ARGV[13] or '') == '' then return {3, 'mask', redis.call('HGET', KEYS[1], 'frozen') or ''} end
  local batch = shape == 'batch'
  redis.call('HSET', KEYS[3], 'state', 'cancelled', 'outcome', cjson.encode({message = why, code = code}))
  -- A batch's executions keep their own calls (the approval's call describes the total).
  if not batch and KEYS[3] == KEYS[18] then setFields(KEYS[3], ARGV[14]) end
  if count(KEYS[1], 'queued', -1) <= 0 then redis.call('ZREM', KEYS[4], ARGV[2]) end
  count(KEYS[1], 'cancelled', 1)
  cancelGiveBack(reservedLedger(KEYS[1], ARGV[10] or '', ARGV[15]), KEYS[3], KEYS[22], ARGV[2], ARGV[1], shape)
  if batch and runnable(as) then
    pauseBatch(KEYS[1], KEYS[2], 'row ' .. redis.call('HGET', KEYS[3], 'n') .. ': ' .. why, at)
  end
  settle(KEYS[1], KEYS[21], ARGV[2], ARGV[13])
  if batch then leaveTurn(KEYS[1], KEYS[17], KEYS[3], ARGV[2]) end
  local view, changed = reindex(KEYS[1], 7, ARGV[2], at)
  -- The entry names its execution even on a single, and keeps the code beside the words (the
  -- screened notice tells a screening cancel by its code, and its once-only mark reads the
  -- execution: app/notices/notify.ts).
  local seq = redis.call('RPUSH', KEYS[2],
    cjson.encode({at = at, event = 'cancelled', by = 'rampart', detail = why, code = code, execution = ARGV[1]}))
  return {2, 'cancelled', kindOf(KEYS[1]), seq, why, code, view, changed and 1 or 0, shape}
end
