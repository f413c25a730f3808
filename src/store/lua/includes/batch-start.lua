--[[
  start.lua's batch checks, after "queued" and "approval runnable".
  KEYS: none of its own; the previous row and the wallets' turns come as parameters.
  ARGV: none.
  Returns: functions only, each a refusal reason or nil.
    batchOrder(a, previous, e, hold, now): within BATCH_HOLD_LIMIT of the approval or its runAt
      (`hold` ms, nil for none; `now` Redis time) ('too-old'); no other row of the batch executing and the row before it
      (`previous`, the execution `e` itself for row 1) final ('waiting').
    batchTurn(a, turns, e, id): the wallet's turn ('turn'), then the funding check ('funding').
]]
-- @include "approval"
-- @include "batch"
local function batchOrder(a, previous, e, hold, now)
  -- The hold limit counts from runAt when the approval waited for one (a delay or a set time).
  local decided = math.max(num(redis.call('HGET', a, 'decidedAt')), num(redis.call('HGET', a, 'runAt')))
  if hold and decided > 0 and now - decided > hold then return 'too-old' end
  if num(redis.call('HGET', a, 'c:executing')) > 0 then return 'waiting' end
  if previous ~= e then
    local before = redis.call('HGET', previous, 'state')
    if before == 'queued' or before == 'executing' then return 'waiting' end
  end
  return nil
end
-- Batches of one wallet in approval order, one at a time. Taking
-- the turn holds it (score 0, so an older batch registered late cannot overtake it) and asks for
-- the funding check first ('funding'): the worker reads the balance and either marks the batch
-- funded or pauses it; nothing is sent meanwhile.
local function batchTurn(a, turns, e, id)
  local member, wallet = turnMember(e, id)
  redis.call('ZADD', turns, 'NX', num(redis.call('HGET', a, 'decidedAt')), member)
  for _, m in ipairs(redis.call('ZRANGE', turns, 0, -1)) do
    if string.sub(m, 1, #wallet) == wallet then
      if m ~= member then return 'turn' end
      break
    end
  end
  if redis.call('HGET', a, 'funded') ~= '1' then
    redis.call('ZADD', turns, 0, member)
    return 'funding'
  end
  return nil
end
