--[[
  queued → executing: the one place an execution may start (DESIGN "States, ids and hashes").
  Every condition on a start is checked here, in the same step as the compare-and-set.
  KEYS[1] approval            KEYS[6] freeze flag
  KEYS[2] history             KEYS[7..15] the 9 view indexes (domain/approval.ts VIEW_STATES order)
  KEYS[3] execution           KEYS[16] a batch's previous row (the execution itself for row 1)
  KEYS[4] ready index         KEYS[17] the wallets' turns (read for a batch only)
  KEYS[5] executing set       KEYS[18] execution 1 (to migrate an older record)
  KEYS[19] the screening list KEYS[20] its meta           KEYS[21] the open set
  KEYS[22] the batch's given-back set (every approval has one; only a batch's rows use it)
  KEYS[23] BATCH_RATE's limiter key (one for every process; read by a batch's rows only)
  (store/script-keys.ts startKeys builds them from names.)
  ARGV[1] execution id        ARGV[5] history entry JSON
  ARGV[2] approval id         ARGV[6] the caller's time (ms), which only stamps what is recorded
  ARGV[3] token                 (startedAt, history, index scores) as in every script; every
  ARGV[4] job id                decision reads Redis TIME, once (includes/redis-now.lua)
  ARGV[7] BATCH_HOLD_LIMIT ms ('' for none)
  ARGV[8] SCREENING (off | on | required)
  ARGV[9] SCREENING_MAX_AGE ms
  ARGV[10] the velocity ledger key prefix (store-keys.ts ledgerPrefix; the ledger keys are built
    from it, as vote.lua does)
  ARGV[11] BATCH_RATE interval ms ('' = off)
  ARGV[12] BATCH_RATE burst
  ARGV[13] the approval's fields masked for a final move (domain/redact.ts; '{}' when already
    masked), '' when the caller has not read them
  ARGV[14] execution 1's fields masked (its call; stored on a single's execution 1 only)
  ARGV[15] the request's velocity subject as the caller read it from the sealed request with the
    masked copy ('' before that): the give-back's fallback for a record stored before its
    `velocity` field was (includes/give-back.lua)
  (the history entry names its execution here: includes/approval.lua aboutExecution)
  Returns {1, 'queued', kind, seq, call, sealHash, frozen, decidedBy, tries, viewChanged,
    approval state before ('approved' → the batch began running, its card changes), shape},
    {0, state, job} (not queued), {0, 'queued', '', why} (approval not runnable: its state, or a
    batch's 'waiting', 'too-old', 'turn', 'funding'), {-1, 'queued'} (frozen),
    {0, 'queued', '', 'not-yet', ms left} (before the approval's runAt, Redis TIME),
    {0, 'queued', '', 'cooling', ms} (its address-book entry, or its new beneficiary, is still
    cooling off),
    {0, 'queued', '', 'rate', ms} (a batch row over BATCH_RATE: nothing changed, try in ms),
    {2, 'cancelled', kind, seq, why, code, view, viewChanged, shape} (the
    start may never run it: screening refused its destination (screening_listed,
    screening_no_list, screening_stale), its address-book entry is gone or not for the wallet, a
    cooling-off was waited out, or a batch row still cooling (entry_removed,
    wallet_not_in_entry, entry_cooling_over, entry_cooling): cancelled in this step, nothing
    sent, includes/start-cancel.lua), or {3, 'mask', the approval's sealed JSON} (such a cancel
    with ARGV[13] '': nothing changed; the caller masks it and starts again).
]]
-- @include "approval"
-- @include "migrate"
-- @include "batch"
-- @include "batch-start"
-- @include "screening"
-- @include "book"
-- @include "start-cancel"
-- @include "gcra"
-- The caller's time stamps what is recorded; every decision below reads `now`, Redis's own clock
-- read once (includes/redis-now.lua): a worker's clock may run ahead or behind (DESIGN
-- "Destinations and time").
local at = tonumber(ARGV[6])
migrate(KEYS[1], KEYS[18], KEYS[4], KEYS[5], ARGV[2], at)
-- What the conditions below decide on, one read of each hash (after the migration, which may
-- write them): every call from a script costs microseconds, and this script is on every payment's
-- path from the click to the service.
local ef = redis.call('HMGET', KEYS[3], 'state', 'job', 'entry', 'dest')
local es = ef[1]
if not es then return {0, ''} end
if es ~= 'queued' then return {0, es, ef[2] or ''} end
local af = redis.call('HMGET', KEYS[1], 'state', 'runAt', 'shape')
local as = af[1]
-- A paused or stopping batch (and any approval not approved/running) starts nothing.
if as ~= 'approved' and as ~= 'running' then return {0, 'queued', '', as or ''} end
-- @include "redis-now"
-- Time (a cancel window or a set time): nothing starts before the approval's runAt. Refused with
-- the ms left; the caller waits that long, no try used.
local runAt = num(af[2])
if now < runAt then return {0, 'queued', '', 'not-yet', string.format('%.0f', runAt - now)} end
-- A batch's rows run one at a time, in order, within BATCH_HOLD_LIMIT of the approval.
local shape = shapeOf(KEYS[1], af[3])
local batch = shape == 'batch'
if batch then
  local why = batchOrder(KEYS[1], KEYS[16], KEYS[3], tonumber(ARGV[7] or ''), now)
  if why then return {0, 'queued', '', why} end
end
if redis.call('EXISTS', KEYS[6]) == 1 then return {-1, 'queued'} end
-- Address book (includes/book.lua): sealed with an entry, it starts only on that entry, live,
-- allowing its wallet and cooled off; otherwise cancelled here, or told to wait ('cooling', ms).
-- A batch's row never holds its batch or its wallet's turn: cooling, it is cancelled too.
local entryId = ef[3]
if entryId then
  local why, code, wait = bookCheck(entryId, now)
  if why then return startCancel(why, code, as, shape, at) end
  if wait and batch then
    return startCancel('its address-book entry is still cooling off; nothing sent', 'entry_cooling', as, shape, at)
  end
  if wait then return {0, 'queued', '', 'cooling', tostring(wait)} end
end
-- A new beneficiary cools off as an entry does (includes/book.lua beneficiaryCheck).
do
  local why, code, wait = beneficiaryCheck(ef[4], now)
  if why then return startCancel(why, code, as, shape, at) end
  if wait and batch then
    return startCancel('its beneficiary is new and still cooling off; nothing sent', 'entry_cooling', as, shape, at)
  end
  if wait then return {0, 'queued', '', 'cooling', tostring(wait)} end
end
if batch then
  local why = batchTurn(KEYS[1], KEYS[17], KEYS[3], ARGV[2])
  if why then return {0, 'queued', '', why} end
end
-- Screening: the destination stored at creation against the list as it is now. A refused
-- execution is cancelled, its velocity reservation given back and its batch paused in this one
-- step, so a worker killed after the script leaves nothing half done.
do
  local why, code = screenRefusal(ef[4], KEYS[19], KEYS[20], ARGV[8] or 'off', tonumber(ARGV[9] or '0'), now)
  if why then return startCancel(why, code, as, shape, at) end
end
-- BATCH_RATE: all batch rows together, across processes. Asked last, once every other condition
-- holds, so a row refused for any other reason never uses up a slot, and a funding check's
-- balance read (which comes before this start) never shortens the gap between two calls.
if batch and (ARGV[11] or '') ~= '' then
  local wait = gcraAdmit(KEYS[23], tonumber(ARGV[11]), tonumber(ARGV[12]), now)
  if wait > 0 then return {0, 'queued', '', 'rate', tostring(wait)} end
end
redis.call('HSET', KEYS[3], 'state', 'executing', 'execToken', ARGV[3], 'job', ARGV[4], 'startedAt', ARGV[6])
local tries = redis.call('HINCRBY', KEYS[3], 'tries', 1)
if count(KEYS[1], 'queued', -1) <= 0 then redis.call('ZREM', KEYS[4], ARGV[2]) end
count(KEYS[1], 'executing', 1)
if as == 'approved' then redis.call('HSET', KEYS[1], 'state', 'running') end
redis.call('ZADD', KEYS[5], at, ARGV[1])
local _, changed = reindex(KEYS[1], 7, ARGV[2], at)
local seq = redis.call('RPUSH', KEYS[2], aboutExecution(KEYS[1], ARGV[5], KEYS[3], KEYS[18], ARGV[1]))
local e = redis.call('HMGET', KEYS[3], 'call', 'sealHash')
local a = redis.call('HMGET', KEYS[1], 'frozen', 'decidedBy', 'kind')
local kind = kindOf(KEYS[1], a[3], a[1])
return {1, 'queued', kind, seq, e[1] or '', e[2] or '', a[1], a[2] or '', tries, changed and 1 or 0, as, shape}
