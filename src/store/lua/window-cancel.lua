--[[
  A cancel inside an approval's wait (a cancel window or a set time): every execution
  queued → cancelled, the velocity reservation released, the approval done, in ONE script, so a
  cancel and start.lua can never both win (DESIGN invariant 11: "a cancel that wins the race means
  nothing is sent"). start.lua moves the approval approved → running in its own step, so an
  approval still `approved` has no execution that started.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution 1         KEYS[6] open set
  KEYS[7..15] the 9 view indexes
  KEYS[16] the wallets' turns          KEYS[17..] every execution
  (store/script-keys.ts windowCancelKeys builds them from names.)
  ARGV[1] approval id         ARGV[3] now (ms)
  ARGV[2] history entry JSON  ARGV[4] approval fields JSON for done
  ARGV[5] execution 1's fields JSON (its masked call; a single's only, as cancel-queued.lua)
  ARGV[6] the velocity ledger key prefix (store-keys.ts ledgerPrefix)
  ARGV[7] the approval's subject as the caller read it from the sealed request ('' for none; used
    only when the approval has no `velocity` field: includes/give-back.lua)
  Returns {n cancelled, kind, seq, viewChanged}, or {0, why}: 'started' (an execution began: the
    start won), 'no-wait' (approved without a runAt), or the approval's state ('' when missing).
]]
-- @include "approval"
-- @include "batch"
-- @include "give-back"
-- @include "cancel-unsent"
local now = tonumber(ARGV[3])
local as = redis.call('HGET', KEYS[1], 'state')
if as == 'running' or as == 'paused' or as == 'stopping' then return {0, 'started'} end
if as == 'done' then
  local f = redis.call('HMGET', KEYS[1], 'c:succeeded', 'c:failed', 'c:unknown')
  if num(f[1]) + num(f[2]) + num(f[3]) > 0 then return {0, 'started'} end
end
if as ~= 'approved' then return {0, as or ''} end
if num(redis.call('HGET', KEYS[1], 'runAt')) == 0 then return {0, 'no-wait'} end
-- Every execution is passed and none started (the approval is still `approved`), so nothing is
-- left queued: the approval leaves the ready index here whatever its c:queued count says
-- (cancelledEnd's own ZREM waits for that count to reach 0).
local n = cancelRows(17)
redis.call('ZREM', KEYS[4], ARGV[1])
-- The quorum reserved the whole amount under the approval's id (+inf) and nothing of it started
-- (a batch's rows included): released whole in this step, the ledger's keys read from what the
-- approval stores (includes/give-back.lua), its running total moving with it.
releaseReservation(KEYS[1], ARGV[6], ARGV[1], ARGV[7])
local seq, changed = cancelledEnd(n, true, now)
return {n, kindOf(KEYS[1]), seq, changed and 1 or 0}
