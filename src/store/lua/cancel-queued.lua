--[[
  Unsent executions of an approved approval cancelled, one page per call (unfreeze-cancel, a
  batch's stop, BATCH_HOLD_LIMIT). Each cancelled row of a batch gives its own units back here,
  once.
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution 1         KEYS[6] open set
  KEYS[7..15] the 9 view indexes
  KEYS[16] a batch's given-back set    KEYS[17] the ledger's amounts (or the given-back set)
  KEYS[18] the wallets' turns          KEYS[19..] the page's executions
  (store/script-keys.ts cancelQueuedKeys builds them from names.)
  ARGV[1] approval id         ARGV[4] approval fields JSON for done
  ARGV[2] history entry JSON  ARGV[5] execution 1's fields JSON (its masked call; a single's only)
  ARGV[3] now (ms)            ARGV[6] JSON list of [execution id, units] per page row (read
    for a batch only)
  Returns {cancelled, approval state before, kind, seq, viewChanged}, or {0, state}.
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
local now = tonumber(ARGV[3])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], now)
local as = redis.call('HGET', KEYS[1], 'state')
if as ~= 'approved' and as ~= 'running' and as ~= 'paused' and as ~= 'stopping' then return {0, as or ''} end
-- Only a batch's rows give units back (a single's velocity is released by finish.lua).
local batch = shapeOf(KEYS[1]) == 'batch'
local units = (batch and ARGV[6] ~= '') and cjson.decode(ARGV[6]) or nil
local first = 19
local n = 0
for i = first, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') == 'queued' then
    redis.call('HSET', KEYS[i], 'state', 'cancelled')
    n = n + 1
    local row = units and units[i - first + 1]
    if row then giveBack(KEYS[17], KEYS[16], ARGV[1], row[1], tonumber(row[2])) end
  end
end
if n == 0 then
  if units then
    settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
    leaveTurn(KEYS[1], KEYS[18], KEYS[3], ARGV[1])
  end
  return {0, as}
end
-- A batch's executions keep their own calls (the approval's call describes the total).
if not batch and redis.call('HGET', KEYS[3], 'state') == 'cancelled' then setFields(KEYS[3], ARGV[5]) end
if count(KEYS[1], 'queued', -n) <= 0 then redis.call('ZREM', KEYS[4], ARGV[1]) end
count(KEYS[1], 'cancelled', n)
settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
if units then leaveTurn(KEYS[1], KEYS[18], KEYS[3], ARGV[1]) end
local _, changed = reindex(KEYS[1], 7, ARGV[1], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[2])
return {n, as, kindOf(KEYS[1]), seq, changed and 1 or 0}
