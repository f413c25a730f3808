/** A not-paid proposal's own script (store/resolve-lua.ts says what follows it). */
import { COMMON } from './approval-lua.js';

/**
 * Records a not-paid proposal. KEYS: approval, history, execution, ready index, executing set.
 * ARGV: proposal JSON, history entry JSON, proposer, execution id, approval id, now. A record
 * written before approvals had executions is migrated first, as every execution script does.
 * Returns {1} or {0, state, why, pending proposal JSON}: the execution is not unknown (why ''),
 * the proposer is the requester ('requester'), or a proposal is pending ('pending': a second
 * approver confirms it instead of proposing again).
 */
export const PROPOSE = `${COMMON}
if string.sub(ARGV[4], -2) == '.1' then migrate(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[5], tonumber(ARGV[6])) end
local es = redis.call('HGET', KEYS[3], 'state')
if es ~= 'unknown' then return {0, es or '', ''} end
local frozen = cjson.decode(redis.call('HGET', KEYS[1], 'frozen') or '{}')
if frozen.requester == ARGV[3] then return {0, es, 'requester'} end
local pending = redis.call('HGET', KEYS[3], 'notPaid')
if pending then return {0, es, 'pending', pending} end
redis.call('HSET', KEYS[3], 'notPaid', ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, es}
`;
