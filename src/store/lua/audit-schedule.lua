--[[
  Schedules the audit webhook's next try for a request found behind its cursor, unless a job is
  delivering it or it has caught up (checked atomically).
  KEYS[1] due tries           KEYS[3] cursors
  KEYS[2] waiting since       KEYS[4] the request's delivery lock
  ARGV[1] request id          ARGV[3] when the try is due (ms)
  ARGV[2] history length      ARGV[4] now (ms)
  Returns 1 when scheduled, else 0.
]]
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
if tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[2], 'NX', ARGV[4], ARGV[1])
return 1
