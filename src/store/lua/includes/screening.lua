--[[
  Screening inside the start script (start.lua), the same rule as at submission
  (domain/rules/screening.ts screeningRule) on the list as it is at the start: an address listed
  between approval and start is never paid. One block, run just before the compare-and-set.
  KEYS: none of its own; start.lua passes KEYS[19] the list (`<prefix>:screening:list`),
    KEYS[20] its meta, KEYS[21] the open set, KEYS[22] the batch's given-back set.
  ARGV: none of its own; start.lua passes ARGV[8] SCREENING (off | on | required), ARGV[9]
    SCREENING_MAX_AGE in ms and ARGV[10] the velocity ledger key prefix.
  Returns: functions only.
    screenRefusal(e, list, meta, mode, maxAge, now) → why, code (nil when it may start).
    screenCancel(a, hist, e, ready, turns, open, id, execId, why, code, as, now): the execution
      queued → cancelled, its batch paused, the approval settled; returns START's
      {2, 'cancelled', kind, seq, why, view, viewChanged, approval state after}.
    screenGiveBack(a, e, given, ledgerPrefix, id, execId): the cancelled execution's velocity
      reservation given back: a single's entry leaves the ledger (as finish.lua on `failed`), a
      batch row's units come off the batch's reservation once (includes/batch.lua giveBack),
      the running total moving with it. The ledger keys are built from ledgerPrefix and the
      approval's `velocity` field, as includes/velocity.lua does.
]]
-- @include "approval"
-- @include "batch"
local function screenRefusal(e, list, meta, mode, maxAge, now)
  if mode == 'off' then return nil end
  local dest = redis.call('HGET', e, 'dest')
  -- Only addresses are screened: a beneficiary is a bank account the service checked.
  if not dest or string.sub(dest, 1, 12) == 'beneficiary:' then return nil end
  local m = redis.call('HMGET', meta, 'name', 'published', 'confirmedAt')
  if m[2] and redis.call('SISMEMBER', list, dest) == 1 then
    return 'listed on ' .. m[1] .. ' of ' .. m[2] .. '; nothing sent', 'screening_listed'
  end
  if mode ~= 'required' then return nil end
  if not m[2] then return 'no sanctions list loaded and SCREENING=required; nothing sent', 'screening_no_list' end
  if now - (tonumber(m[3]) or 0) > maxAge then
    return 'the ' .. m[1] .. ' list of ' .. m[2] .. ' is stale and SCREENING=required; nothing sent', 'screening_stale'
  end
  return nil
end
local function screenCancel(a, hist, e, ready, turns, open, id, execId, why, code, as, now)
  redis.call('HSET', e, 'state', 'cancelled', 'outcome', cjson.encode({message = why, screening = code}))
  if count(a, 'queued', -1) <= 0 then redis.call('ZREM', ready, id) end
  count(a, 'cancelled', 1)
  local batch = shapeOf(a) == 'batch'
  if batch and runnable(as) then pauseBatch(a, hist, 'row ' .. redis.call('HGET', e, 'n') .. ': ' .. why, now) end
  settle(a, open, id, '')
  if batch then leaveTurn(a, turns, e, id) end
  local view, changed = reindex(a, 7, id, now)
  local seq = redis.call('RPUSH', hist, cjson.encode({at = now, event = 'cancelled', by = 'rampart',
    detail = why, execution = execId}))
  return {2, 'cancelled', kindOf(a), seq, why, view, changed and 1 or 0, redis.call('HGET', a, 'state') or ''}
end
local function screenGiveBack(a, e, given, ledgerPrefix, id, execId)
  local field = redis.call('HGET', a, 'velocity')
  -- No subject (a request that moves no money, or one stored before subjects were): nothing reserved.
  if ledgerPrefix == '' or not field or field == '' or field == 'none' then return end
  local s = cjson.decode(field)
  local ledger = ledgerPrefix .. s.walletId .. ':' .. s.code
  local amounts = ledger .. ':amounts'
  if shapeOf(a) ~= 'batch' then
    ledgerDrop(ledger, amounts, id)
    return
  end
  -- A row's units are its sealed call's amount in minor units (domain/velocity.ts velocitySubject:
  -- amountFromNumber). A JSON number with at most `decimals` fraction digits times 10^decimals
  -- is within one rounding of an integer below 2^53, so rounding gives it exactly.
  local ok, c = pcall(cjson.decode, redis.call('HGET', e, 'call') or '')
  local amount = ok and type(c) == 'table' and type(c.body) == 'table' and tonumber(c.body.amount)
  -- An amount not readable here (never a sealed row): its units stay reserved, the safe side.
  if not amount or amount <= 0 then return end
  giveBack(amounts, given, id, execId, math.floor(amount * 10 ^ tonumber(s.decimals) + 0.5), ledger)
end
