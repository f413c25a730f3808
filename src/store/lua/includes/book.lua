--[[
  The start's address-book check (start.lua), the same rule as domain/address-book.ts
  entryStartRule: an execution the create sealed with an entry (field `entry`, create.lua) starts
  only while that entry still exists with that id, is not removed, allows the sealed wallet and
  has finished cooling off by Redis's clock. A removed entry (or one that does not allow the
  wallet, or a cooling-off waited out) cancels the execution here, its velocity given back and a
  batch paused on the row, in the same step, so nothing not yet sent to a removed entry ever is.
  Keys are built from the execution's own prefix (hash-tagged on a cluster: the same slot), as the
  vote builds its velocity ledger; store/address-book.ts names the same keys.
  KEYS: start.lua's (KEYS[1] approval, [2] history, [3] execution, [4] ready, [7..15] the views,
    [17] the wallets' turns, [22] the batch's given-back set). ARGV: start.lua's ([1] execution id,
    [2] approval id, [10] the velocity ledger key prefix).
  Returns: functions only.
    bookCheck(entryId): why the execution may not start (it is to be cancelled), or nil and the
      ms it must still wait (cooling), or nil.
    bookCancel(why, as, batch, now): queued → cancelled with everything above; returns
      {3, 'cancelled', kind, seq, why, viewChanged, shape}.
    beneficiaryCheck(): for an offramp to a new beneficiary (one registered with a cooling-off:
      `<prefix>:beneficiaries:cooling`, store/registry.ts), the same as bookCheck's cooling:
      why it is to be cancelled (waited the whole cooling-off), or nil and the ms still to wait.
]]
-- @include "screening"
local function bookNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function bookPrefix() return string.sub(KEYS[3], 1, #KEYS[3] - #(':exec:' .. ARGV[1])) end
local function sealedCall()
  local raw = redis.call('HGET', KEYS[3], 'call')
  if not raw then
    local ok, f = pcall(cjson.decode, redis.call('HGET', KEYS[1], 'frozen') or '')
    return (ok and type(f) == 'table' and f.call) or {}, ''
  end
  local ok, c = pcall(cjson.decode, raw)
  return (ok and type(c) == 'table' and c) or {}, raw
end
-- Why the execution may not start (it is cancelled), nil and a wait in ms (still cooling), or nil.
local function bookCheck(entryId)
  local f = redis.call('HMGET', bookPrefix() .. ':book:entry:' .. entryId,
    'id', 'removedAt', 'usableAt', 'wallets', 'removedBy', 'approvedAt')
  if not f[1] or f[1] ~= entryId or f[2] then
    return 'address-book entry removed' .. (f[5] and (' by <@' .. f[5] .. '>') or '') .. '; nothing sent'
  end
  local call = sealedCall()
  local wallet = (call.body and call.body.wallet_id) or ''
  if f[4] ~= '*' and not string.find(f[4] or '', ',' .. wallet .. ',', 1, true) then
    return 'the address-book entry may not be paid from wallet ' .. wallet .. '; nothing sent'
  end
  local now = bookNow()
  local usable = tonumber(f[3]) or 0
  if now >= usable then return nil end
  local decided = num(redis.call('HGET', KEYS[1], 'decidedAt'))
  if decided > 0 and now > decided + (usable - (tonumber(f[6]) or usable)) then
    return 'waited its address-book entry’s whole cooling-off and it is still cooling; nothing sent'
  end
  return nil, usable - now
end
-- The same cooling-off for a new beneficiary (domain/address-book.ts entryStartRule's wait).
local function beneficiaryCheck()
  local dest = redis.call('HGET', KEYS[3], 'dest')
  if not dest or string.sub(dest, 1, 12) ~= 'beneficiary:' then return nil end
  local raw = redis.call('HGET', bookPrefix() .. ':beneficiaries:cooling', string.sub(dest, 13))
  local ok, c = pcall(cjson.decode, raw or '')
  if not ok or type(c) ~= 'table' or not tonumber(c.usableAt) then return nil end
  local now, usable = bookNow(), tonumber(c.usableAt)
  if now >= usable then return nil end
  local decided = num(redis.call('HGET', KEYS[1], 'decidedAt'))
  if decided > 0 and now > decided + (usable - (tonumber(c.approvedAt) or usable)) then
    return 'waited its new beneficiary’s whole cooling-off and it is still cooling; nothing sent'
  end
  return nil, usable - now
end
-- queued → cancelled in START: velocity back (a single's reservation, a row's own units), a batch
-- paused on the row, the approval settled when nothing else is left.
local function bookCancel(why, as, batch, now)
  local prefix = bookPrefix()
  redis.call('HSET', KEYS[3], 'state', 'cancelled', 'outcome', cjson.encode({message = why}))
  if count(KEYS[1], 'queued', -1) <= 0 then redis.call('ZREM', KEYS[4], ARGV[2]) end
  count(KEYS[1], 'cancelled', 1)
  -- The velocity reservation back as screening gives it (a single's whole, a row's own units read
  -- from its sealed call; one not readable stays reserved, the safe side, and is not marked given).
  screenGiveBack(KEYS[1], KEYS[3], KEYS[22], ARGV[10] or '', ARGV[2], ARGV[1])
  if batch and runnable(as) then
    pauseBatch(KEYS[1], KEYS[2], 'row ' .. redis.call('HGET', KEYS[3], 'n') .. ': ' .. why, now)
  end
  settle(KEYS[1], prefix .. ':req:open', ARGV[2], '')
  if batch and KEYS[17] then leaveTurn(KEYS[1], KEYS[17], KEYS[3], ARGV[2]) end
  local _, changed = reindex(KEYS[1], 7, ARGV[2], now)
  local seq = redis.call('RPUSH', KEYS[2], aboutExecution(KEYS[1],
    cjson.encode({at = now, event = 'cancelled', detail = why}), KEYS[3], KEYS[18], ARGV[1]))
  return {3, 'cancelled', kindOf(KEYS[1]), seq, why, changed and 1 or 0, shapeOf(KEYS[1])}
end
