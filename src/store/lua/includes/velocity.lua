--[[
  Velocity limits inside vote.lua, so an Approve click reads nothing before its vote: the
  request's subject (domain/velocity.ts velocitySubject) is stored on the approval at creation
  (hash field `velocity`, store/velocity-lua.ts createField), every configured rule comes as
  ARGV, and the script picks the request's own rules as domain/velocity.ts rulesFor does
  (test/store/velocity-lua.test.ts compares the two over a grid). The ledger keys are built here
  from the key prefix, as store/controls.ts ledgerKey does: under the hash-tagged prefix they
  share the approval's slot on a Redis Cluster.
  KEYS: none of its own; velocityCheck(record, id, now, at, stored) takes the approval's key
    (and, optionally, its `velocity` field when the caller has read it already).
  ARGV (from index `at`): ARGV[at] the ledger key prefix, ARGV[at + 1] the retention (ms),
    ARGV[at + 2] the subject ('' for the record's field), then the rules from ARGV[at + 3] as
    quadruples (alias or '*', code, limit in minor units, window ms).
  Returns: functions only.
    velocityCheck → { refused = 'needs_subject' } for a record without the field,
      { refused = 'over_limit', index, used, field } when the request does not fit a rule, else
      { ledger, amounts, units } to record at quorum (all nil for a request that moves no money).
      Sums are in integer minor units: every cap is < 1e15, so a sum near a cap is exact in a
      double, and a sum past 2^53 still compares as over the cap. A window's sum is read from
      whichever side of its edge holds fewer entries (includes/ledger.lua windowSide): the
      entries inside it, or the ledger's running total less the entries before it (exact while
      the total is below 2^53; above, the entries inside are summed). Each rule costs a ZCOUNT
      and the smaller side's entries (none read when that side is empty), so hundreds of open
      reservations cost a vote nothing more.
    velocityRules(first, alias, code) → the rules that bind a subject, from the quadruples that
      start at ARGV[first], as { index in the configured list (0-based), limit, window ms }. A
      wallet's own rules for the code replace the '*' rules for it (rulesFor).
  'none' is store/velocity-lua.ts NO_SUBJECT: a request that moves no money (test/unit/store/lua-files.test.ts
  checks the two agree).
]]
-- @include "ledger"
local function velocityRules(first, alias, code)
  code = string.upper(code)
  local own, any = {}, {}
  local i = first
  while ARGV[i] do
    if ARGV[i + 1] == code then
      local rule = { (i - first) / 4, tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]) }
      if ARGV[i] == alias then own[#own + 1] = rule elseif ARGV[i] == '*' then any[#any + 1] = rule end
    end
    i = i + 4
  end
  if #own > 0 then return own end
  return any
end
local function velocityCheck(record, id, now, at, stored)
  local field = ARGV[at + 2]
  if field == '' then field = stored or redis.call('HGET', record, 'velocity') end
  -- A record stored before its subject was: nothing counted; the app reads it and votes again.
  if not field or field == '' then return { refused = 'needs_subject' } end
  if field == 'none' then return {} end
  local s = cjson.decode(field)
  local ledger = ARGV[at] .. s.walletId .. ':' .. s.code
  local amounts = ledger .. ':amounts'
  local units = tonumber(s.units)
  local cut = '(' .. string.format('%.0f', now - tonumber(ARGV[at + 1]))
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, '-inf', cut)) do
    ledgerDrop(ledger, amounts, member)
  end
  -- A reservation whose rows all ran or were given back holds nothing: it leaves the ledger.
  local open = redis.call('ZRANGEBYSCORE', ledger, '+inf', '+inf')
  for i = 1, #open, 500 do
    local held = redis.call('HMGET', amounts, unpack(open, i, math.min(i + 499, #open)))
    for k = 1, #held do
      if (tonumber(held[k]) or 0) <= 0 then ledgerDrop(ledger, amounts, open[i + k - 1]) end
    end
  end
  local count, total = ledgerKept(ledger, amounts)
  if not total then
    total = ledgerSum(ledger, amounts, '-inf', '+inf')
    redis.call('HSET', amounts, '#total', string.format('%.0f', total), '#count', count)
  end
  -- A request's own entry never counts against itself.
  local mine = redis.call('ZSCORE', ledger, id)
  local mineUnits = mine and (tonumber(redis.call('HGET', amounts, id)) or 0) or 0
  for _, rule in ipairs(velocityRules(at + 3, s.walletAlias, s.code)) do
    local edge = string.format('%.0f', now - rule[3])
    local side, ids = windowSide(ledger, count, edge, total < 2^53)
    local used = ledgerSumOf(amounts, ids)
    if side == 'total' then used = total - used end
    if mine and (mine == 'inf' or tonumber(mine) > now - rule[3]) then used = used - mineUnits end
    if used + units > rule[2] then
      return { refused = 'over_limit', index = tostring(rule[1]), used = string.format('%.0f', used), field = field }
    end
  end
  return { ledger = ledger, amounts = amounts, units = s.units }
end
