--[[
  Screening inside the start script (start.lua), the same rule as at submission
  (domain/rules/screening.ts screeningRule) on the list as it is at the start: an address listed
  between approval and start is never paid. One check, run just before the compare-and-set; a
  refusal is cancelled by includes/start-cancel.lua.
  KEYS: none of its own; start.lua passes KEYS[3] the execution, KEYS[19] the list
    (`<prefix>:screening:list`) and KEYS[20] its meta.
  ARGV: none of its own; start.lua passes ARGV[8] SCREENING (off | on | required) and ARGV[9]
    SCREENING_MAX_AGE in ms.
  Returns: functions only.
    screenRefusal(dest, list, meta, mode, maxAge, now) → why, code (nil when it may start); `now` is
      Redis's clock (the start's one TIME), never a worker's: a worker's clock may run ahead or
      behind, and a stale list must not pass for fresh on it.
]]
local function screenRefusal(dest, list, meta, mode, maxAge, now)
  if mode == 'off' then return nil end
  -- Only addresses are screened: a beneficiary is a bank account the service checked.
  if not dest or string.sub(dest, 1, 12) == 'beneficiary:' then return nil end
  local m = redis.call('HMGET', meta, 'name', 'published', 'confirmedAt')
  if m[2] and redis.call('SISMEMBER', list, dest) == 1 then
    return 'listed on ' .. m[1] .. ' of ' .. m[2] .. '; nothing sent', 'screening_listed'
  end
  if mode ~= 'required' then return nil end
  if not m[2] then return 'no sanctions list loaded and SCREENING=required; nothing sent', 'screening_no_list' end
  if now - (tonumber(m[3]) or 0) > maxAge then
    return 'the ' .. m[1] .. ' list of ' .. m[2] .. ' is stale and SCREENING=required; nothing sent', 'screening_stale'
  end
  return nil
end
