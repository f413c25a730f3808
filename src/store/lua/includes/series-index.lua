--[[
  The series index (store/store-keys.ts StoreKeys.series): every series' id scored by its number,
  so the list reads series without scanning every approval (store/series.ts SeriesStore.ids).
  create.lua adds a series when it is created; vote.lua at its quorum and series-run.lua at each
  due run add it again, so a series a process of the previous version created (whose create.lua
  did not write the index) after the one-time catch-up is still listed. Adding again changes
  nothing.
  KEYS: none of its own; the index comes as a parameter.
  ARGV: none.
  Returns: functions only.
    seriesIndexAdd(index, id): adds series `id` (S-<n>) to `index`.
]]
local function seriesIndexAdd(index, id)
  redis.call('ZADD', index, tonumber(string.sub(id, 3)) or 0, id)
end
