--[[
  An approver skips one run of a live series: the run key `S-n:k` is claimed as 'skipped' in the
  same step, so the run's creation (series-run.lua) refuses it; a run already created is left to
  its own card, and the approver is told which happened.
  KEYS[1] series approval     KEYS[3] the run key S-n:k
  KEYS[2] series history
  ARGV[1] k                   ARGV[3] history entry JSON
  ARGV[2] the run's skip mark JSON, stored as it is (domain/series.ts skipMarkOf: who skipped
    it and by which door, or Rampart's reason)
  Returns {'skipped'}, {'already_skipped'}, {'created', run id}, {'not_live', state}.
]]
local claim = redis.call('GET', KEYS[3])
if claim == 'skipped' then return {'already_skipped'} end
if claim then return {'created', claim} end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'live' then return {'not_live', state or ''} end
redis.call('SET', KEYS[3], 'skipped')
redis.call('HSET', KEYS[1], 'run:' .. ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
return {'skipped'}
