--[[
  An execution's move out of executing (or unknown → a late answer): final, or back to queued
  when provably never sent. The approval's counts, state and view move in the same step; a
  batch's row also gives back its units, pauses its batch and leaves its wallet's turn here.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution           KEYS[6] open set
  KEYS[7..15] the 9 view indexes (domain/approval.ts VIEW_STATES order)
  KEYS[16] the velocity ledger (or KEYS[18]: none): a single's is released on `failed` and
    re-stamped with its start time on succeeded/unknown; a batch row's is where a row that ran
    is re-stamped under its own id
  KEYS[17] the ledger's amounts (or KEYS[18]: none)
  KEYS[18] the batch's given-back set (every approval has one; only a batch's rows use it)
  KEYS[19] the wallets' turns (used for a batch only)
  KEYS[20] a batch row's next execution, whose state and tries come back (or KEYS[3]: none)
  KEYS[21] execution 1 (to migrate an older record)
  (store/script-keys.ts finishKeys builds them from names: no caller counts positions.)
  ARGV[1] execution id        ARGV[6] history entry JSON
  ARGV[2] approval id         ARGV[7] execution fields JSON
  ARGV[3] to                  ARGV[8] now (ms)
  ARGV[4] allowed from (comma-separated)
  ARGV[5] token or ''         ARGV[9] approval fields JSON when it becomes done
  ARGV[10] a batch row's options JSON ('' for none: `units` to give back on failed,
    `pauseAfter` failures in a row, `pauseWhy` to pause when going back to queued)
  ARGV[11] a person's not-paid confirmation JSON ({proposal, by, passkey}) or '': without a
    worker's token, unknown → failed needs one that holds (includes/confirm-check.lua).
  ARGV[12] the approval's call masked with it ('' for none): stored on a single request's
    execution 1 by its final move.
  (The history entry names its execution here: includes/approval.lua aboutExecution.)
  Returns {1, from, kind, seq, viewChanged, view, approval state before, approval state after,
    the next row's state and tries ('' without KEYS[20]), shape} or {0, state, refusal}.
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
-- @include "confirm-check"
local given, turns = KEYS[18], KEYS[19]
-- A key the caller has none for comes as the given-back set (or the execution itself for the
-- next row): a key of the approval's own slot, never touched.
local ledger = KEYS[16] ~= given and KEYS[16] or nil
local amounts = KEYS[17] ~= given and KEYS[17] or nil
local nextRow = KEYS[20] ~= KEYS[3] and KEYS[20] or nil
local now = tonumber(ARGV[8])
migrate(KEYS[1], KEYS[21], KEYS[4], KEYS[5], ARGV[2], now)
local es = redis.call('HGET', KEYS[3], 'state')
if not es then return {0, ''} end
local allowed = false
for s in string.gmatch(ARGV[4], '[^,]+') do if s == es then allowed = true end end
if not allowed then return {0, es} end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[3], 'execToken') ~= ARGV[5] then return {0, es} end
-- A person's not-paid (no worker token) moves unknown → failed only as a confirmed proposal.
if es == 'unknown' and ARGV[3] == 'failed' and ARGV[5] == '' then
  local refused = confirmRefusal(KEYS[1], KEYS[3], ARGV[11])
  if refused then return {0, es, refused} end
end
local as = redis.call('HGET', KEYS[1], 'state')
local asBefore = as
local to = ARGV[3]
local batch = shapeOf(KEYS[1]) == 'batch'
local opt = (batch and ARGV[10] and ARGV[10] ~= '') and cjson.decode(ARGV[10]) or {}
-- A row that provably never left while its batch is stopping is cancelled, not queued.
if to == 'queued' and as == 'stopping' then to = 'cancelled' end
redis.call('HSET', KEYS[3], 'state', to)
setFields(KEYS[3], ARGV[7])
-- A single request's execution 1 carries the approval's call, masked with it; a batch's
-- executions keep their own calls (the approval's call describes the total).
if ARGV[12] and ARGV[12] ~= '' and not batch and KEYS[3] == KEYS[21] then redis.call('HSET', KEYS[3], 'call', ARGV[12]) end
count(KEYS[1], es, -1)
count(KEYS[1], to, 1)
if es == 'executing' then redis.call('ZREM', KEYS[5], ARGV[1]) end
-- The first unknown row pauses its batch, in the same step (nothing else starts).
if to == 'unknown' and batch and runnable(as) then
  redis.call('HSET', KEYS[1], 'state', 'paused')
  as = 'paused'
end
if batch then
  -- A failed (or cancelled) row gives back its own units here, with its final move.
  if to == 'failed' or to == 'cancelled' then giveBack(amounts or given, given, ARGV[2], ARGV[1], tonumber(opt.units), ledger) end
  -- A row that ran counts from its start time from now on.
  if ledger and es == 'executing' and (to == 'succeeded' or to == 'unknown') then
    restampRow(ledger, amounts or given, ARGV[2], ARGV[1], tonumber(opt.units), tonumber(redis.call('HGET', KEYS[3], 'startedAt')))
  end
  -- BATCH_PAUSE_AFTER_FAILURES failed rows in a row pause the batch; a success breaks the run.
  if to == 'failed' then
    local run = redis.call('HINCRBY', KEYS[1], 'failRun', 1)
    if opt.pauseAfter and run >= tonumber(opt.pauseAfter) and runnable(as) then
      pauseBatch(KEYS[1], KEYS[2], run .. ' rows in a row failed; check them, then resume or stop', now)
      as = 'paused'
    end
  elseif to == 'succeeded' then
    redis.call('HSET', KEYS[1], 'failRun', '0')
  end
  -- A row whose start no replica acknowledged is back to queued AND its batch pauses.
  if to == 'queued' and opt.pauseWhy and runnable(as) then
    pauseBatch(KEYS[1], KEYS[2], opt.pauseWhy, now)
    as = 'paused'
  end
end
if to == 'queued' and (as == 'approved' or as == 'running' or as == 'paused') then redis.call('ZADD', KEYS[4], now, ARGV[2]) end
settle(KEYS[1], KEYS[6], ARGV[2], ARGV[9])
if batch then leaveTurn(KEYS[1], turns, KEYS[3], ARGV[2]) end
-- A failed execution gives its velocity amount back in the move itself, so exactly once.
if not batch and ARGV[3] == 'failed' and ledger and amounts then
  ledgerDrop(ledger, amounts, ARGV[2])
end
-- Velocity (singles too): reserved at +inf by the vote (never ages out while queued or
-- frozen), a request that ran is re-stamped with its start time, in the same step as its answer.
if not batch and ledger and amounts and es == 'executing' and (to == 'succeeded' or to == 'unknown') then
  local at = redis.call('HGET', KEYS[3], 'startedAt')
  if at then redis.call('ZADD', ledger, 'XX', at, ARGV[2]) end
end
local view, changed = reindex(KEYS[1], 7, ARGV[2], now)
local seq = redis.call('RPUSH', KEYS[2], aboutExecution(KEYS[1], ARGV[6], KEYS[3], KEYS[21], ARGV[1]))
-- What the row's end needs next, read here instead of after.
local following = nextRow and redis.call('HMGET', nextRow, 'state', 'tries') or {}
return {1, es, kindOf(KEYS[1]), seq, changed and 1 or 0, view, asBefore or '',
  redis.call('HGET', KEYS[1], 'state') or '', following[1] or '', following[2] or '', shapeOf(KEYS[1])}
