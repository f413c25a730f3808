/**
 * Lua for approvals and their executions. Each script runs as one Redis command and
 * touches only keys passed in KEYS (Redis Cluster: the prefix is hash-tagged, so all share a slot).
 * Every script that touches an approval first migrates a record written before format 2 (MIGRATE),
 * so old and new records can meet any script at any time.
 *
 * Approval hash fields (v=2): state (approval state), view (domain/approval.ts viewState), n
 * (executions), c:<execution state> (counts), plus today's request fields. Execution hash
 * `<prefix>:exec:<R-n.k>`: v, state, approval, n, call, sealHash, tries, execToken, job, outcome.
 */

/** Views in domain/approval.ts VIEW_STATES order: their index keys are passed in this order. */
import { BATCH_LUA, BATCH_START_ORDER } from './batch-lua.js';
import { CONFIRM_CHECK } from './resolve-lua.js';

const VIEWS = `local VIEWS = {'pending','approved','executing','succeeded','failed','unknown','denied','cancelled','expired'}`;

/** domain/approval.ts viewState, on the stored counts; reindex moves the approval between indexes. */
export const COMMON = `
${VIEWS}
local function num(v) return tonumber(v or '0') or 0 end
local function viewOf(a)
  local f = redis.call('HMGET', a, 'state', 'c:executing', 'c:succeeded', 'c:failed', 'c:unknown')
  local s = f[1]
  if s == 'pending' or s == 'denied' or s == 'cancelled' or s == 'expired' then return s end
  if s == 'done' then
    if num(f[5]) > 0 then return 'unknown' end
    if num(f[4]) > 0 then return 'failed' end
    if num(f[3]) > 0 then return 'succeeded' end
    return 'cancelled'
  end
  if num(f[2]) > 0 then return 'executing' end
  return 'approved'
end
local function viewKey(base, v)
  for i, name in ipairs(VIEWS) do if name == v then return KEYS[base + i - 1] end end
end
local function reindex(a, base, id, now)
  local before = redis.call('HGET', a, 'view')
  local after = viewOf(a)
  if before == after then return after, false end
  if before then redis.call('ZREM', viewKey(base, before), id) end
  redis.call('ZADD', viewKey(base, after), now, id)
  redis.call('HSET', a, 'view', after)
  return after, true
end
local function count(a, state, by) return redis.call('HINCRBY', a, 'c:' .. state, by) end
local function kindOf(a)
  return redis.call('HGET', a, 'kind') or cjson.decode(redis.call('HGET', a, 'frozen')).call.kind
end
local function setFields(key, json)
  if json == nil or json == '' then return end
  for k, v in pairs(cjson.decode(json)) do redis.call('HSET', key, k, v) end
end
-- domain/approval.ts SINGLE_STATES: a request state before format 2 as approval + one execution.
local SINGLE = { pending = {'pending', 'queued'}, approved = {'approved', 'queued'},
  executing = {'running', 'executing'}, succeeded = {'done', 'succeeded'}, failed = {'done', 'failed'},
  unknown = {'done', 'unknown'}, denied = {'denied', 'cancelled'}, cancelled = {'cancelled', 'cancelled'},
  expired = {'expired', 'cancelled'} }
-- An old record becomes an approval with execution <id>.1, in place; its indexes keep
-- their names (the view states are the old states). The sealed call stays in 'frozen' (not
-- re-encoded: cjson would round numbers) and its 10-character hash is checked as such.
local function migrate(a, e, ready, running, id, now)
  if redis.call('HEXISTS', a, 'v') == 1 then return end
  local old = redis.call('HGET', a, 'state')
  if not old then return end
  local m = SINGLE[old]
  local f = redis.call('HMGET', a, 'frozen', 'execToken', 'outcome')
  local started = (old == 'executing' or m[1] == 'done') and '1' or '0'
  redis.call('HSET', e, 'v', '2', 'state', m[2], 'approval', id, 'n', '1', 'tries', started,
    'sealHash', cjson.decode(f[1]).hash)
  if f[2] then redis.call('HSET', e, 'execToken', f[2], 'job', id) end
  if f[3] then redis.call('HSET', e, 'outcome', f[3]) end
  redis.call('HSET', a, 'v', '2', 'state', m[1], 'view', old, 'n', '1', 'c:' .. m[2], '1')
  if old == 'approved' then redis.call('ZADD', ready, now, id) end
  if old == 'executing' then redis.call('ZADD', running, now, id .. '.1') end
end
-- Every execution final: the approval is done, with its counts (same script as the last move).
local function settle(a, open, id, approvalFields)
  local s = redis.call('HGET', a, 'state')
  if s ~= 'approved' and s ~= 'running' and s ~= 'paused' and s ~= 'stopping' then return end
  local f = redis.call('HMGET', a, 'c:queued', 'c:executing')
  if num(f[1]) > 0 or num(f[2]) > 0 then return end
  redis.call('HSET', a, 'state', 'done')
  redis.call('SREM', open, id)
  setFields(a, approvalFields)
end
`;

/**
 * queued → executing: the one place an execution may start (DESIGN "States, ids and hashes").
 * KEYS: approval, history, execution, ready index, executing set, freeze flag, 9 view indexes,
 * the batch's previous execution (the execution itself when there is none); a batch's row also
 * its wallet's turn (KEYS[17]).
 * ARGV: execution id, approval id, token, job id, history entry JSON, now, BATCH_HOLD_LIMIT ms ('').
 * Returns {1, 'queued', kind, seq, call, sealHash, frozen, decidedBy, tries, viewChanged, approval state
 * before ('approved' → the batch began running, its card changes)} or
 * {0, state, job} (not queued), {0, 'queued', '', why} (approval not runnable: its state, or a
 * batch's 'waiting', 'too-old', 'turn', 'funding'), {0, 'queued', '', 'not-yet', ms left} (before
 * its runAt), {-1, 'queued'} (frozen).
 */
export const START = `${COMMON}${BATCH_LUA}${BATCH_START_ORDER}
local now = tonumber(ARGV[6])
if string.sub(ARGV[1], -2) == '.1' then migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[2], now) end
local es = redis.call('HGET', KEYS[3], 'state')
if not es then return {0, ''} end
if es ~= 'queued' then return {0, es, redis.call('HGET', KEYS[3], 'job') or ''} end
local as = redis.call('HGET', KEYS[1], 'state')
-- A paused or stopping batch (and any approval not approved/running) starts nothing.
if as ~= 'approved' and as ~= 'running' then return {0, 'queued', '', as or ''} end
-- Time (a cancel window or a set time): nothing starts before the approval's runAt, on Redis's
-- own clock (never a worker's). Refused with the ms left; the caller waits that long, no try used.
local rt = redis.call('TIME')
local rnow = tonumber(rt[1]) * 1000 + math.floor(tonumber(rt[2]) / 1000)
local runAt = num(redis.call('HGET', KEYS[1], 'runAt'))
if rnow < runAt then return {0, 'queued', '', 'not-yet', string.format('%.0f', runAt - rnow)} end
-- A batch's rows run one at a time, in order, within BATCH_HOLD_LIMIT of the approval.
local batch = string.sub(ARGV[2], 1, 2) == 'B-'
if batch then
  local why = batchOrder(KEYS[1], tonumber(ARGV[7] or ''), rnow)
  if why then return {0, 'queued', '', why} end
end
if redis.call('EXISTS', KEYS[6]) == 1 then return {-1, 'queued'} end
if batch and KEYS[17] then
  local why = batchTurn(KEYS[1], KEYS[17], KEYS[3], ARGV[2])
  if why then return {0, 'queued', '', why} end
end
redis.call('HSET', KEYS[3], 'state', 'executing', 'execToken', ARGV[3], 'job', ARGV[4], 'startedAt', ARGV[6])
local tries = redis.call('HINCRBY', KEYS[3], 'tries', 1)
if count(KEYS[1], 'queued', -1) <= 0 then redis.call('ZREM', KEYS[4], ARGV[2]) end
count(KEYS[1], 'executing', 1)
if as == 'approved' then redis.call('HSET', KEYS[1], 'state', 'running') end
redis.call('ZADD', KEYS[5], now, ARGV[1])
local _, changed = reindex(KEYS[1], 7, ARGV[2], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[5])
local e = redis.call('HMGET', KEYS[3], 'call', 'sealHash')
local a = redis.call('HMGET', KEYS[1], 'frozen', 'decidedBy')
return {1, 'queued', kindOf(KEYS[1]), seq, e[1] or '', e[2] or '', a[1], a[2] or '', tries, changed and 1 or 0, as}
`;

/**
 * An execution's move out of executing (or unknown → a late answer): final, or back to queued
 * when provably never sent. KEYS: approval, history, execution, ready, executing set, open set,
 * 9 view indexes; a single request optionally the velocity ledger and its amounts (released on
 * `failed`, re-stamped with the start time on succeeded/unknown); a batch's row always the batch's
 * given-back set, the ledger's amounts (or the given-back set again when nothing is to be given
 * back), the wallets' turns and the ledger (or the given-back set again) (KEYS[16..19]). ARGV: execution id, approval id, to, allowed from
 * (comma-separated), token or '', history entry JSON, execution fields JSON, now, approval
 * fields JSON when it becomes done, a batch row's options JSON ('' for none: `units` to give
 * back on failed, `pauseAfter` failures in a row, `pauseWhy` to pause when going back to queued).
 * A batch's row may pass the next row's execution as KEYS[20].
 * ARGV[11]: a person's not-paid confirmation JSON ({proposal, by, passkey}) or '': without a worker's
 * token, unknown → failed needs one that holds (store/resolve-lua.ts CONFIRM_CHECK).
 * Returns {1, from, kind, seq, viewChanged, view, approval state before, approval state after,
 * the next row's state and tries ('' without KEYS[20])} or {0, state, refusal}.
 */
export const FINISH = `${COMMON}${BATCH_LUA}${CONFIRM_CHECK}
local now = tonumber(ARGV[8])
if string.sub(ARGV[1], -2) == '.1' then migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[2], now) end
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
local batch = string.sub(ARGV[2], 1, 2) == 'B-' and KEYS[18] ~= nil
local opt = (batch and ARGV[10] and ARGV[10] ~= '') and cjson.decode(ARGV[10]) or {}
-- A row that provably never left while its batch is stopping is cancelled, not queued.
if to == 'queued' and as == 'stopping' then to = 'cancelled' end
redis.call('HSET', KEYS[3], 'state', to)
setFields(KEYS[3], ARGV[7])
count(KEYS[1], es, -1)
count(KEYS[1], to, 1)
if es == 'executing' then redis.call('ZREM', KEYS[5], ARGV[1]) end
-- The first unknown row pauses its batch, in the same step (nothing else starts).
if to == 'unknown' and string.sub(ARGV[2], 1, 2) == 'B-' and runnable(as) then
  redis.call('HSET', KEYS[1], 'state', 'paused')
  as = 'paused'
end
if batch then
  local ledger = (KEYS[19] and KEYS[19] ~= KEYS[16]) and KEYS[19] or nil
  -- A failed (or cancelled) row gives back its own units here, with its final move.
  if to == 'failed' or to == 'cancelled' then giveBack(KEYS[17], KEYS[16], ARGV[2], ARGV[1], tonumber(opt.units), ledger) end
  -- A row that ran counts from its start time from now on.
  if ledger and es == 'executing' and (to == 'succeeded' or to == 'unknown') then
    restampRow(ledger, KEYS[17], ARGV[2], ARGV[1], tonumber(opt.units), tonumber(redis.call('HGET', KEYS[3], 'startedAt')))
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
if batch then leaveTurn(KEYS[1], KEYS[18], KEYS[3], ARGV[2]) end
-- A failed execution gives its velocity amount back in the move itself, so exactly once.
if not batch and ARGV[3] == 'failed' and KEYS[17] then
  redis.call('ZREM', KEYS[16], ARGV[2])
  redis.call('HDEL', KEYS[17], ARGV[2])
end
-- Velocity (singles too): reserved at +inf by the vote (never ages out while queued or
-- frozen), a request that ran is re-stamped with its start time, in the same step as its answer.
if not batch and KEYS[17] and es == 'executing' and (to == 'succeeded' or to == 'unknown') then
  local at = redis.call('HGET', KEYS[3], 'startedAt')
  if at then redis.call('ZADD', KEYS[16], 'XX', at, ARGV[2]) end
end
local view, changed = reindex(KEYS[1], 7, ARGV[2], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[6])
-- What the row's end needs next, read here instead of after.
local following = KEYS[20] and redis.call('HMGET', KEYS[20], 'state', 'tries') or {}
return {1, es, kindOf(KEYS[1]), seq, changed and 1 or 0, view, asBefore or '',
  redis.call('HGET', KEYS[1], 'state') or '', following[1] or '', following[2] or ''}
`;

/**
 * A pending approval decided without running: denied, cancelled or expired; its executions are
 * cancelled with it. KEYS: approval, history, execution 1, ready, executing set, open set, 9 view
 * indexes, then every execution. ARGV: to, history entry JSON, approval fields JSON, now, id,
 * execution 1's fields JSON (its masked call).
 * Returns {1, 'pending', kind, seq} or {0, view}.
 */
export const DECIDE = `${COMMON}
local now = tonumber(ARGV[4])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[5], now)
local s = redis.call('HGET', KEYS[1], 'state')
if not s then return {0, ''} end
if s ~= 'pending' then return {0, redis.call('HGET', KEYS[1], 'view')} end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
setFields(KEYS[1], ARGV[3])
local n = 0
for i = 16, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') == 'queued' then
    redis.call('HSET', KEYS[i], 'state', 'cancelled')
    n = n + 1
  end
end
count(KEYS[1], 'queued', -n)
count(KEYS[1], 'cancelled', n)
setFields(KEYS[3], ARGV[6])
redis.call('SREM', KEYS[6], ARGV[5])
reindex(KEYS[1], 7, ARGV[5], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, 'pending', kindOf(KEYS[1]), seq}
`;

/**
 * Unsent executions of an approved approval cancelled, one page per call (unfreeze-cancel, a
 * batch's stop, BATCH_HOLD_LIMIT). KEYS: approval, history, execution 1, ready, executing set,
 * open set, 9 view indexes, then (a batch: ARGV[6] given) the given-back set, the ledger's
 * amounts and the wallets' turns, then the page's executions. ARGV: approval id, history entry JSON,
 * now, approval fields JSON for done, execution 1's fields JSON (its masked call), a batch's
 * JSON list of [execution id, units] per page row ('' for a single request): each cancelled row gives its own
 * units back in this script, once. Returns {cancelled, approval state before, kind, seq, viewChanged}.
 */
export const CANCEL_QUEUED = `${COMMON}${BATCH_LUA}
local now = tonumber(ARGV[3])
migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], now)
local as = redis.call('HGET', KEYS[1], 'state')
if as ~= 'approved' and as ~= 'running' and as ~= 'paused' and as ~= 'stopping' then return {0, as or ''} end
local units = (ARGV[6] and ARGV[6] ~= '') and cjson.decode(ARGV[6]) or nil
local first = units and 19 or 16
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
if redis.call('HGET', KEYS[3], 'state') == 'cancelled' then setFields(KEYS[3], ARGV[5]) end
if count(KEYS[1], 'queued', -n) <= 0 then redis.call('ZREM', KEYS[4], ARGV[1]) end
count(KEYS[1], 'cancelled', n)
settle(KEYS[1], KEYS[6], ARGV[1], ARGV[4])
if units then leaveTurn(KEYS[1], KEYS[18], KEYS[3], ARGV[1]) end
local _, changed = reindex(KEYS[1], 7, ARGV[1], now)
local seq = redis.call('RPUSH', KEYS[2], ARGV[2])
return {n, as, kindOf(KEYS[1]), seq, changed and 1 or 0}
`;

/**
 * Migrates one record (worker start-up sweep: store/migration-sweep.ts). KEYS: approval,
 * execution 1, ready, executing set. ARGV: id, now. Returns 1 (already new), 0 (migrated now),
 * -1 (no such record), -2 (still old: no state to migrate from, so the sweep leaves no marker).
 */
export const MIGRATE = `${COMMON}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], 'v') == 1 then return 1 end
migrate(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]))
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return -2 end
return 0
`;
