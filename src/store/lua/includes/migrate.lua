--[[
  Brings a record written in an older format up to today's (format 3), in place, inside the
  script that meets it: old and new records can then meet any script at any time.
  KEYS: none of its own; migrate(a, e, ready, running, id, now) takes the approval, its
    execution 1, the ready index and the executing set from the calling script's KEYS.
  ARGV: none.
  Returns: functions only. migrate leaves a record it cannot read (no state) as it is;
    migrateShape(a) takes a format-2 record to format 3 alone (no execution keys needed).
    Format 1 → 2: a request without executions becomes an approval with execution <id>.1; its
      indexes keep their names (the view states are the old states).
    Format 2 → 3: the approval gets its `shape` ('single' or 'batch'), derived once from what
      the record holds: a batch's sealed request carries its card facts (display.batch) and
      a batch of more than one row has several executions. The id is never read for it.
]]
-- domain/approval.ts SINGLE_STATES: a request state before format 2 as approval + one execution.
local SINGLE = { pending = {'pending', 'queued'}, approved = {'approved', 'queued'},
  executing = {'running', 'executing'}, succeeded = {'done', 'succeeded'}, failed = {'done', 'failed'},
  unknown = {'done', 'unknown'}, denied = {'denied', 'cancelled'}, cancelled = {'cancelled', 'cancelled'},
  expired = {'expired', 'cancelled'} }
-- domain/approval.ts executionId: execution k of approval id.
local function executionId(id, k) return id .. '.' .. k end
-- The sealed call stays in 'frozen' (not re-encoded: cjson would round numbers) and its
-- 10-character hash is checked as such.
local function migrateToExecutions(a, e, ready, running, id, now)
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
  if old == 'executing' then redis.call('ZADD', running, now, executionId(id, 1)) end
end
local function shapeFromRecord(a)
  local f = redis.call('HMGET', a, 'frozen', 'n')
  local ok, sealed = pcall(cjson.decode, f[1] or '')
  local facts = ok and type(sealed) == 'table' and type(sealed.display) == 'table' and sealed.display.batch
  if (facts ~= nil and facts ~= false and facts ~= cjson.null) or (tonumber(f[2] or '1') or 1) > 1 then
    return 'batch'
  end
  return 'single'
end
-- Format 2 → 3 alone: what a script that never meets a format-1 record (a batch's) runs.
local function migrateShape(a)
  if redis.call('HEXISTS', a, 'v') == 0 or redis.call('HEXISTS', a, 'shape') == 1 then return end
  redis.call('HSET', a, 'shape', shapeFromRecord(a), 'v', '3')
end
local function migrate(a, e, ready, running, id, now)
  -- A record of today's format (`v` and `shape` both set) needs nothing: one read tells, where
  -- the two steps would ask three times (every call from a script costs microseconds).
  local f = redis.call('HMGET', a, 'v', 'shape')
  if f[1] and f[2] then return end
  migrateToExecutions(a, e, ready, running, id, now)
  migrateShape(a)
end
