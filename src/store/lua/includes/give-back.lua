--[[
  A cancelled execution's velocity give-back, decided inside the cancelling script from what the
  approval stores: its `velocity` field (the subject, store/velocity-lua.ts createField) and the
  ledger key prefix (store-keys.ts ledgerPrefix). Every cancel of unsent executions gives back
  through it: the start's (includes/start-cancel.lua), cancel-queued.lua (the freeze's cancel, a
  batch's stop, BATCH_HOLD_LIMIT) and window-cancel.lua. The ledger keys are built here as
  includes/velocity.lua builds them at the vote: under the hash-tagged prefix they share the
  approval's slot on a Redis Cluster.
  KEYS: none of its own; every key comes as a parameter.
  ARGV: none of its own; the prefix and the subject come as parameters.
  Returns: functions only.
    reservedLedger(a, ledgerPrefix, subject) → { ledger, amounts, decimals }, or nil when nothing
      was reserved: ledgerPrefix '', or a request that moves no money ('none', store/velocity-lua.ts
      NO_SUBJECT). `subject` (nil or '' for none) is the subject as the caller read it from the
      sealed request, used only when the approval has no `velocity` field: a record stored before
      the field was is approved by a vote the app passes the subject to (vote.lua needs_subject),
      which reserves it without storing the field. Read once per script: a page of rows shares it.
    releaseReservation(a, ledgerPrefix, id, subject): the approval's whole reservation leaves the
      ledger (its entry and amount), the running total moving with it (includes/ledger.lua).
    cancelGiveBack(r, e, given, id, execId, shape): the cancelled execution's reservation given
      back, `r` being reservedLedger's answer (nil: nothing): a single's entry leaves the ledger
      (as finish.lua on `failed`), a batch row's units come off the batch's reservation once
      (includes/batch.lua giveBack, the given-back set `given` remembering the row), the running
      total moving with it.
]]
-- @include "batch"
local function reservedLedger(a, ledgerPrefix, subject)
  local field = redis.call('HGET', a, 'velocity')
  if not field or field == '' then field = subject end
  if not ledgerPrefix or ledgerPrefix == '' or not field or field == '' or field == 'none' then return nil end
  local s = cjson.decode(field)
  local ledger = ledgerPrefix .. s.walletId .. ':' .. s.code
  return { ledger = ledger, amounts = ledger .. ':amounts', decimals = tonumber(s.decimals) }
end
local function releaseReservation(a, ledgerPrefix, id, subject)
  local r = reservedLedger(a, ledgerPrefix, subject)
  if r then ledgerDrop(r.ledger, r.amounts, id) end
end
local function cancelGiveBack(r, e, given, id, execId, shape)
  if not r then return end
  if shape ~= 'batch' then
    ledgerDrop(r.ledger, r.amounts, id)
    return
  end
  -- A row's units are its sealed call's amount in minor units (domain/velocity.ts velocitySubject:
  -- amountFromNumber). A JSON number with at most `decimals` fraction digits times 10^decimals
  -- is within one rounding of an integer below 2^53, so rounding gives it exactly.
  local ok, c = pcall(cjson.decode, redis.call('HGET', e, 'call') or '')
  local amount = ok and type(c) == 'table' and type(c.body) == 'table' and tonumber(c.body.amount)
  -- An amount not readable here (never a sealed row): its units stay reserved, the safe side.
  if not amount or amount <= 0 then return end
  giveBack(r.amounts, given, id, execId, math.floor(amount * 10 ^ r.decimals + 0.5), r.ledger)
end
