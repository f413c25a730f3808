--[[
  Velocity limits inside vote.lua, so an Approve click reads nothing before its vote: the
  request's subject (domain/velocity.ts velocitySubject) is stored on the approval at creation
  (hash field `velocity`, store/velocity-lua.ts createField), every configured rule comes as
  ARGV, and the script picks the request's own rules as domain/velocity.ts rulesFor does
  (test/store/velocity-lua.test.ts compares the two over a grid). The ledger keys are built here
  from the key prefix, as store/controls.ts ledgerKey does: under the hash-tagged prefix they
  share the approval's slot on a Redis Cluster.
  KEYS: none of its own; velocityCheck(record, id, now, at) takes the approval's key.
  ARGV (from index `at`): ARGV[at] the ledger key prefix, ARGV[at + 1] the retention (ms),
    ARGV[at + 2] the subject ('' for the record's field), then the rules from ARGV[at + 3] as
    quadruples (alias or '*', code, limit in minor units, window ms).
  Returns: functions only.
    velocityCheck → { refused = 'needs_subject' } for a record without the field,
      { refused = 'over_limit', index, used, field } when the request does not fit a rule, else
      { ledger, amounts, units } to record at quorum (all nil for a request that moves no money).
      Sums are in integer minor units: every cap is < 1e15, so a sum near a cap is exact in a
      double, and a sum past 2^53 still compares as over the cap.
    velocityRules(first, alias, code) → the rules that bind a subject, from the quadruples that
      start at ARGV[first], as { index in the configured list (0-based), limit, window ms }. A
      wallet's own rules for the code replace the '*' rules for it (rulesFor).
  'none' is store/velocity-lua.ts NO_SUBJECT: a request that moves no money (test/unit/store/lua-files.test.ts
  checks the two agree).
]]
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
local function velocityCheck(record, id, now, at)
  local field = ARGV[at + 2]
  if field == '' then field = redis.call('HGET', record, 'velocity') end
  -- A record stored before its subject was: nothing counted; the app reads it and votes again.
  if not field or field == '' then return { refused = 'needs_subject' } end
  if field == 'none' then return {} end
  local s = cjson.decode(field)
  local ledger = ARGV[at] .. s.walletId .. ':' .. s.code
  local amounts = ledger .. ':amounts'
  local units = tonumber(s.units)
  local cut = '(' .. string.format('%.0f', now - tonumber(ARGV[at + 1]))
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, '-inf', cut)) do
    redis.call('ZREM', ledger, member)
    redis.call('HDEL', amounts, member)
  end
  -- A reservation whose rows all ran or were given back holds nothing: it leaves the ledger.
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, '+inf', '+inf')) do
    if (tonumber(redis.call('HGET', amounts, member)) or 0) <= 0 then
      redis.call('ZREM', ledger, member)
      redis.call('HDEL', amounts, member)
    end
  end
  for _, rule in ipairs(velocityRules(at + 3, s.walletAlias, s.code)) do
    local since = '(' .. string.format('%.0f', now - rule[3])
    local used = 0
    for _, member in ipairs(redis.call('ZRANGEBYSCORE', ledger, since, '+inf')) do
      if member ~= id then used = used + (tonumber(redis.call('HGET', amounts, member)) or 0) end
    end
    if used + units > rule[2] then
      return { refused = 'over_limit', index = tostring(rule[1]), used = string.format('%.0f', used), field = field }
    end
  end
  return { ledger = ledger, amounts = amounts, units = s.units }
end
