--[[
  Helpers for a batch's rows, run inside the row's own start or final move, so a give-back, a
  pause or the wallet's turn can never be half done (a worker killed between two round trips
  cannot lose or repeat one).
  KEYS: none of its own; every key comes as a parameter.
  ARGV: none.
  Returns: functions only.
    runnable(s): the approval state lets rows start.
    giveBack(amounts, given, approvalId, rowId, units, ledger): 1 when the row's units went back.
    restampRow(ledger, amounts, approvalId, rowId, units, at): a row that ran counts from `at`.
    pauseBatch(a, hist, why, now), turnMember(e, id) → member, wallet prefix, leaveTurn(a, turns, e, id).
]]
-- @include "ledger"
local function runnable(s) return s == 'approved' or s == 'running' end
-- The approval reserved the batch's total under its id, scored +inf (it counts
-- in every window until its rows run). A row ending failed or cancelled takes its own units off,
-- once (the given set remembers the row); a row already re-stamped under its own id (an unknown
-- resolved not-paid) leaves the ledger (KEYS: ledger, when given).
local function giveBack(amounts, given, approvalId, rowId, units, ledger)
  if redis.call('SADD', given, rowId) == 0 then return 0 end
  if ledger and redis.call('HEXISTS', amounts, rowId) == 1 then
    ledgerDrop(ledger, amounts, rowId)
    return 1
  end
  if not units or units <= 0 then return 0 end
  local was = tonumber(redis.call('HGET', amounts, approvalId))
  if not was then return 0 end
  local left = redis.call('HINCRBY', amounts, approvalId, -units)
  if left < 0 then
    redis.call('HSET', amounts, approvalId, '0')
    left = 0
  end
  ledgerAdd(amounts, left - was, 0)
  return 1
end
-- A row that ran (succeeded or unknown) moves its units out of the batch's
-- +inf reservation into its own entry scored by its start time, so it ages out like a single
-- payment started then; the rest of the batch keeps counting in every window.
local function restampRow(ledger, amounts, approvalId, rowId, units, at)
  if not units or units <= 0 or not at then return end
  if not redis.call('HGET', amounts, approvalId) then return end
  if redis.call('HEXISTS', amounts, rowId) == 1 then return end
  local left = redis.call('HINCRBY', amounts, approvalId, -units)
  redis.call('HSET', amounts, rowId, string.format('%.0f', units))
  ledgerAdd(amounts, 0, redis.call('ZADD', ledger, at, rowId))
  -- The units moved within the ledger: the total changes only by what the reservation lacked.
  if left <= 0 then ledgerDrop(ledger, amounts, approvalId) end
end
-- Nothing of the batch starts until an approver resumes (or anyone stops);
-- the reason is on the approval (the card shows it) and in its history.
local function pauseBatch(a, hist, why, now)
  redis.call('HSET', a, 'state', 'paused', 'pausedWhy', why)
  redis.call('HDEL', a, 'funded')
  redis.call('RPUSH', hist, cjson.encode({at = now, event = 'paused', detail = why}))
end
-- One sorted set of open batches, '<wallet id> <batch id>' by approval
-- time; the wallet is read from the row's own sealed call, so no caller needs it beforehand.
local function turnMember(e, id)
  local call = redis.call('HGET', e, 'call')
  local ok, c = pcall(cjson.decode, call or '')
  local w = (ok and type(c) == 'table' and c.body and c.body.wallet_id) or ''
  return w .. ' ' .. id, w .. ' '
end
-- A finished batch leaves its wallet's queue, so the next one may start.
local function leaveTurn(a, turns, e, id)
  if redis.call('HGET', a, 'state') == 'done' then redis.call('ZREM', turns, (turnMember(e, id))) end
end
