--[[
  The start's address-book check (start.lua), the same rule as domain/address-book.ts
  entryStartRule: an execution the create sealed with an entry (field `entry`, create.lua) starts
  only while that entry still exists with that id, is not removed, allows the sealed wallet and
  has finished cooling off by Redis's clock. A removed entry (or one that does not allow the
  wallet, or a cooling-off waited out) is cancelled by the start (includes/start-cancel.lua), its
  velocity given back and a batch paused on the row, in the same step, so nothing not yet sent to
  a removed entry ever is.
  Keys are built from the execution's own prefix (hash-tagged on a cluster: the same slot), as the
  vote builds its velocity ledger; store/address-book.ts names the same keys.
  KEYS: start.lua's (KEYS[1] approval, [3] execution).
  ARGV: start.lua's ([1] execution id).
  Returns: functions only; `now` is the start's one Redis TIME.
    bookCheck(entryId, now): why the execution may not start (it is to be cancelled) and its code
      (domain/address-book.ts entryStartRule: entry_removed, wallet_not_in_entry,
      entry_cooling_over), or nil, nil and the ms it must still wait (cooling), or nil.
    beneficiaryCheck(dest, now): for an offramp (`dest`, the execution's field of that name) to a
      new beneficiary (one registered with a cooling-off: `<prefix>:beneficiaries:cooling`,
      store/registry.ts), the same as bookCheck's cooling:
      why it is to be cancelled and its code (entry_cooling_over: waited the whole cooling-off),
      or nil, nil and the ms still to wait.
]]
-- @include "approval"
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
-- Why the execution may not start (it is cancelled) and its code, nil, nil and a wait in ms
-- (still cooling), or nil.
local function bookCheck(entryId, now)
  local f = redis.call('HMGET', bookPrefix() .. ':book:entry:' .. entryId,
    'id', 'removedAt', 'usableAt', 'wallets', 'removedBy', 'approvedAt')
  if not f[1] or f[1] ~= entryId or f[2] then
    return 'address-book entry removed' .. (f[5] and (' by <@' .. f[5] .. '>') or '') .. '; nothing sent', 'entry_removed'
  end
  local call = sealedCall()
  local wallet = (call.body and call.body.wallet_id) or ''
  if f[4] ~= '*' and not string.find(f[4] or '', ',' .. wallet .. ',', 1, true) then
    return 'the address-book entry may not be paid from wallet ' .. wallet .. '; nothing sent', 'wallet_not_in_entry'
  end
  local usable = tonumber(f[3]) or 0
  if now >= usable then return nil end
  local decided = num(redis.call('HGET', KEYS[1], 'decidedAt'))
  if decided > 0 and now > decided + (usable - (tonumber(f[6]) or usable)) then
    return 'waited its address-book entry’s whole cooling-off and it is still cooling; nothing sent', 'entry_cooling_over'
  end
  return nil, nil, usable - now
end
-- The same cooling-off for a new beneficiary (domain/address-book.ts entryStartRule's wait).
local function beneficiaryCheck(dest, now)
  if not dest or string.sub(dest, 1, 12) ~= 'beneficiary:' then return nil end
  local raw = redis.call('HGET', bookPrefix() .. ':beneficiaries:cooling', string.sub(dest, 13))
  local ok, c = pcall(cjson.decode, raw or '')
  if not ok or type(c) ~= 'table' or not tonumber(c.usableAt) then return nil end
  local usable = tonumber(c.usableAt)
  if now >= usable then return nil end
  local decided = num(redis.call('HGET', KEYS[1], 'decidedAt'))
  if decided > 0 and now > decided + (usable - (tonumber(c.approvedAt) or usable)) then
    return 'waited its new beneficiary’s whole cooling-off and it is still cooling; nothing sent', 'entry_cooling_over'
  end
  return nil, nil, usable - now
end
