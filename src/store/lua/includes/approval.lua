--[[
  An approval's view, counts and end, shared by the execution scripts.
  KEYS: none of its own; reindex reads the 9 view indexes from KEYS[base..base+8], in
    domain/approval.ts VIEW_STATES order (the order VIEWS lists them).
  ARGV: none.
  Returns: functions only.
    viewOf(a): domain/approval.ts viewState, on the stored counts.
    reindex(a, base, id, now): moves the approval between view indexes; returns view, changed.
    count(a, state, by): the approval's count of executions in `state`, moved by `by`.
    cancelRows(first, each) → n: every queued execution among KEYS[first..] becomes cancelled
      (its state only); each(k), when given, for the k-th key (from 1) so cancelled.
    cancelQueued(a, first) → n: the same, counted on approval `a`.
    kindOf(a, kind, sealed): the call's kind (stored `kind`, else the sealed call's); `kind` and
      `sealed` as the caller already read them (HMGET's false when missing), else read here.
    shapeOf(a, stored): 'single' or 'batch', the stored `shape` (written by create.lua, or by
      migrate); `stored` as the caller already read it, else read here.
    setFields(key, json): HSET every field of a JSON object ('' or nil: nothing).
    settle(a, open, id, approvalFields): every execution final → the approval is done.
    aboutExecution(a, entry, e, first, execId): a history entry JSON naming its execution, except
      a single request's execution 1 (its history reads as before approvals had executions).
]]
local VIEWS = {'pending','approved','executing','succeeded','failed','unknown','denied','cancelled','expired'}
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
-- Lua's -0 (the negation of an empty count) reaches Redis as "-0", which HINCRBY refuses.
local function count(a, state, by)
  if by == 0 then by = 0 end
  return redis.call('HINCRBY', a, 'c:' .. state, by)
end
-- Every queued execution among KEYS[first..] becomes cancelled: how many. `each(k)`, when given,
-- is told each one's place among them (1 for KEYS[first]).
local function cancelRows(first, each)
  local n = 0
  for i = first, #KEYS do
    if redis.call('HGET', KEYS[i], 'state') == 'queued' then
      redis.call('HSET', KEYS[i], 'state', 'cancelled')
      n = n + 1
      if each then each(i - first + 1) end
    end
  end
  return n
end
-- The same, counted on approval `a`: how many.
local function cancelQueued(a, first)
  local n = cancelRows(first)
  count(a, 'queued', -n)
  count(a, 'cancelled', n)
  return n
end
local function kindOf(a, kind, sealed)
  if sealed == nil then kind = redis.call('HGET', a, 'kind') end
  return kind or cjson.decode(sealed or redis.call('HGET', a, 'frozen')).call.kind
end
-- Every script that reads the shape migrates the record first, so the field is there. `stored`:
-- the field as the caller's own read of the approval gave it (HMGET's false when missing).
local function shapeOf(a, stored)
  if stored == nil then stored = redis.call('HGET', a, 'shape') end
  return stored or 'single'
end
local function setFields(key, json)
  if json == nil or json == '' then return end
  for k, v in pairs(cjson.decode(json)) do redis.call('HSET', key, k, v) end
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
local function aboutExecution(a, entry, e, first, execId)
  if e == first and shapeOf(a) == 'single' then return entry end
  return string.sub(entry, 1, -2) .. ',"execution":' .. cjson.encode(execId) .. '}'
end
