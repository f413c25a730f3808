--[[
  Migrates one record to today's format (the worker's start-up sweep: store/migration-sweep.ts).
  KEYS[1] approval            KEYS[3] ready index
  KEYS[2] execution 1         KEYS[4] executing set
  ARGV[1] approval id         ARGV[2] now (ms)
  Returns 1 (already new), 0 (migrated now), -1 (no such record), -2 (still old: no state to
    migrate from, so the sweep leaves no marker).
]]
-- @include "migrate"
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], 'v') == 1 and redis.call('HEXISTS', KEYS[1], 'shape') == 1 then return 1 end
migrate(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]))
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return -2 end
return 0
