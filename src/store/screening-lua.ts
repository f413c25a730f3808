/**
 * Screening inside the start script (START in store/approval-lua.ts), the same rule as at
 * submission (domain/rules/screening.ts screeningRule) applied to the list as it is at the start:
 * an address listed between approval and start is never paid. One block, included after COMMON
 * and BATCH_LUA, run just before the compare-and-set.
 *
 * KEYS[SL] the list (`<prefix>:screening:list`), KEYS[SL + 1] its meta, KEYS[SL + 2] the open
 * set, where SL is 18 for a batch's row (after the wallets' turns) and 17 for a single request.
 * ARGV[8] SCREENING (off | on | required), ARGV[9] SCREENING_MAX_AGE in ms.
 */

/** Cancels the queued execution being started, pauses its batch, settles the approval. */
export const SCREEN_CANCEL = `
local function screenCancel(a, hist, e, id, execId, why, code, as, open, now)
  redis.call('HSET', e, 'state', 'cancelled', 'outcome', cjson.encode({message = why, screening = code}))
  if count(a, 'queued', -1) <= 0 then redis.call('ZREM', KEYS[4], id) end
  count(a, 'cancelled', 1)
  local batch = string.sub(id, 1, 2) == 'B-'
  if batch and runnable(as) then pauseBatch(a, hist, 'row ' .. redis.call('HGET', e, 'n') .. ': ' .. why, now) end
  settle(a, open, id, '')
  if batch then leaveTurn(a, KEYS[17], e, id) end
  local view, changed = reindex(a, 7, id, now)
  local seq = redis.call('RPUSH', hist, cjson.encode({at = now, event = 'cancelled', by = 'rampart',
    detail = why, execution = execId}))
  return {2, 'cancelled', kindOf(a), seq, why, view, changed and 1 or 0, redis.call('HGET', a, 'state') or ''}
end
`;

/** The check itself: a hit returns from START with the cancellation's answer. */
export const SCREEN_AT_START = `
local screening = ARGV[8] or 'off'
local dest = screening ~= 'off' and redis.call('HGET', KEYS[3], 'dest') or nil
if dest and string.sub(dest, 1, 12) ~= 'beneficiary:' then
  local SL = batch and 18 or 17
  local m = redis.call('HMGET', KEYS[SL + 1], 'name', 'published', 'confirmedAt')
  local why, code
  if m[2] and redis.call('SISMEMBER', KEYS[SL], dest) == 1 then
    why, code = 'listed on ' .. m[1] .. ' of ' .. m[2] .. '; nothing sent', 'screening_listed'
  elseif screening == 'required' and not m[2] then
    why, code = 'no sanctions list loaded and SCREENING=required; nothing sent', 'screening_no_list'
  elseif screening == 'required' and now - (tonumber(m[3]) or 0) > tonumber(ARGV[9]) then
    why, code = 'the ' .. m[1] .. ' list of ' .. m[2] .. ' is stale and SCREENING=required; nothing sent', 'screening_stale'
  end
  if why then return screenCancel(KEYS[1], KEYS[2], KEYS[3], ARGV[2], ARGV[1], why, code, as, KEYS[SL + 2], now) end
end
`;
