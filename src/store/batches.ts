/**
 * A batch's own Redis state (issue 20): its rows as approved (for the thread's files and the
 * receipt; the reference is Rampart's and never sent), resume and stop as atomic moves of the
 * approval, and each row's velocity give-back, once. Rows start and finish in the execution
 * scripts (store/approval-lua.ts), which also pause a batch at its first unknown row.
 */

import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { HistoryEntry } from '../domain/request.js';
import type { PasskeyProof } from '../domain/step-up.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';
import type { StoreKeys } from './store-keys.js';

/** paused → running. KEYS: approval, history, ready. ARGV: id, history entry JSON, now. Returns {ok, state}. */
const RESUME = `
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'paused' then return {0, s or ''} end
redis.call('HSET', KEYS[1], 'state', 'running')
if tonumber(redis.call('HGET', KEYS[1], 'c:queued') or '0') > 0 then redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1]) end
redis.call('RPUSH', KEYS[2], ARGV[2])
return {1, s}
`;

/** approved | running | paused → stopping. KEYS: approval, history. ARGV: history entry JSON. */
const STOP = `
local s = redis.call('HGET', KEYS[1], 'state')
if s ~= 'approved' and s ~= 'running' and s ~= 'paused' then return {0, s or ''} end
redis.call('HSET', KEYS[1], 'state', 'stopping')
redis.call('RPUSH', KEYS[2], ARGV[1])
return {1, s}
`;

/**
 * A row's reservation given back, once (issue 20 "Velocity"): the approval reserved the total
 * at quorum under its id; a failed or cancelled row takes its own units off. KEYS: the ledger's
 * amounts hash, the batch's given-back set. ARGV: approval id, row (execution) id, units.
 */
const GIVE_BACK = `
if redis.call('SADD', KEYS[2], ARGV[2]) == 0 then return 0 end
if not redis.call('HGET', KEYS[1], ARGV[1]) then return 0 end
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[3]))
if left < 0 then redis.call('HSET', KEYS[1], ARGV[1], '0') end
return 1
`;

export type Moved = { ok: true } | { ok: false; state: string | undefined };

export class BatchStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly now: () => number,
  ) {}

  private rowsKey = (id: string) => `${this.keys.prefix}:batch:${id}:rows`;
  private givenKey = (id: string) => `${this.keys.prefix}:batch:${id}:given`;

  /** Written just before the approval is created; an orphan (create refused) is harmless. */
  async saveRows(id: string, rows: readonly BatchRowRecord[]): Promise<void> {
    await this.redis.set(this.rowsKey(id), JSON.stringify(rows));
  }

  async rows(id: string): Promise<BatchRowRecord[]> {
    const raw = await this.redis.get(this.rowsKey(id));
    return raw ? (JSON.parse(raw) as BatchRowRecord[]) : [];
  }

  /** `passkey`: issue 22, the verified assertion of a step-up batch's Resume, kept in its history. */
  async resume(id: string, by: string, passkey?: PasskeyProof): Promise<Moved> {
    const at = this.now();
    const entry: HistoryEntry = passkey
      ? { at, event: 'resumed', by, detail: 'with passkey', passkey }
      : { at, event: 'resumed', by };
    const [ok, state] = (await evalScript(
      this.redis,
      RESUME,
      3,
      this.keys.approval(id),
      this.keys.history(id),
      this.keys.ready,
      id,
      JSON.stringify(entry),
      String(at),
    )) as [number, string];
    return ok === 1 ? { ok: true } : { ok: false, state: state || undefined };
  }

  async stop(id: string, by: string): Promise<Moved> {
    const entry: HistoryEntry = { at: this.now(), event: 'stopped', by };
    const [ok, state] = (await evalScript(
      this.redis,
      STOP,
      2,
      this.keys.approval(id),
      this.keys.history(id),
      JSON.stringify(entry),
    )) as [number, string];
    return ok === 1 ? { ok: true } : { ok: false, state: state || undefined };
  }

  /** True when this row's units were given back now (false: before, or nothing was reserved). */
  async giveBack(amountsKey: string, approvalId: string, rowId: string, units: bigint): Promise<boolean> {
    const r = await evalScript(
      this.redis,
      GIVE_BACK,
      2,
      amountsKey,
      this.givenKey(approvalId),
      approvalId,
      rowId,
      units.toString(),
    );
    return r === 1;
  }
}
