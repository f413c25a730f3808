/**
 * Lua for a person's verdict on an outcome-unknown execution. A not-paid takes two people: the
 * proposal is stored on the execution (field `notPaid`) by PROPOSE (store/propose-lua.ts); the move unknown → failed
 * happens only in FINISH (store/approval-lua.ts), which runs CONFIRM_CHECK in the same script:
 * a proposal exists, it is the one the confirmer saw, the confirmer is neither its proposer nor
 * the requester, and a step-up approval's confirmer brought a passkey. Two confirmations at once
 * move it once: the second finds the execution failed.
 */

/**
 * Included in FINISH after COMMON. KEYS[1] approval, KEYS[3] execution; `c` the confirmation JSON
 * ({proposal, by, passkey}) or ''. Returns the refusal, or nil when the confirmation holds.
 */
export const CONFIRM_CHECK = `
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
`;
