--[[
  Records a not-paid proposal on an outcome-unknown execution (field `notPaid`). The move
  unknown → failed happens only in finish.lua, once a second person confirms it
  (includes/confirm-check.lua).
  KEYS[1] approval            KEYS[4] ready index
  KEYS[2] history             KEYS[5] executing set
  KEYS[3] execution           KEYS[6] execution 1 (to migrate an older record)
  ARGV[1] proposal JSON       ARGV[4] execution id
  ARGV[2] history entry JSON  ARGV[5] approval id
  ARGV[3] proposer            ARGV[6] now (ms)
  Returns {1} or {0, state, why, pending proposal JSON}: the execution is not unknown (why ''),
    the proposer is the requester ('requester'), or a proposal is pending ('pending': a second
    approver confirms it instead of proposing again).
]]
-- @include "migrate"
migrate(KEYS[1], KEYS[6], KEYS[4], KEYS[5], ARGV[5], tonumber(ARGV[6]))
local es = redis.call('HGET', KEYS[3], 'state')
if es ~= 'unknown' then return {0, es or '', ''} end
local frozen = cjson.decode(redis.call('HGET', KEYS[1], 'frozen') or '{}')
if frozen.requester == ARGV[3] then return {0, es, 'requester'} end
local pending = redis.call('HGET', KEYS[3], 'notPaid')
if pending then return {0, es, 'pending', pending} end
redis.call('HSET', KEYS[3], 'notPaid', ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, es}
