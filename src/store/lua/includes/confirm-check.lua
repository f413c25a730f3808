--[[
  A person's not-paid confirmation, checked inside finish.lua before unknown → failed. A not-paid
  takes two people: the proposal is stored on the execution (field `notPaid`) by propose.lua; it
  holds when it exists, is the one the confirmer saw, the confirmer is neither its proposer nor
  the requester, and a step-up approval's confirmer brought a passkey. Two confirmations at once
  move it once: the second finds the execution failed.
  KEYS: none of its own; confirmRefusal(a, e, c) takes the approval and the execution.
  ARGV: none; `c` is the confirmation JSON ({proposal, by, passkey}) or ''.
  Returns: confirmRefusal → the refusal ('no-confirmation', 'requester', 'no-proposal', 'stale',
    'proposer', 'needs-passkey'), or nil when the confirmation holds.
]]
local function confirmRefusal(a, e, c)
  if c == nil or c == '' then return 'no-confirmation' end
  local ok, conf = pcall(cjson.decode, c)
  if not ok or type(conf) ~= 'table' then return 'no-confirmation' end
  local frozen = cjson.decode(redis.call('HGET', a, 'frozen') or '{}')
  if conf.by == frozen.requester then return 'requester' end
  local raw = redis.call('HGET', e, 'notPaid')
  if not raw then return 'no-proposal' end
  local p = cjson.decode(raw)
  if p.id ~= conf.proposal then return 'stale' end
  if p.by == conf.by then return 'proposer' end
  if frozen.stepUp == true and conf.passkey ~= true then return 'needs-passkey' end
  return nil
end
