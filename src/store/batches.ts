/**
 * A batch's own Redis state: its rows as approved (for the thread's files and the
 * receipt; the reference is Rampart's and never sent), resume, stop and pause as atomic moves of
 * the approval. Rows start and finish in the execution scripts (store/lua/), which
 * also pause a batch (first unknown row, a run of failures, an unacknowledged start) and give
 * back each failed or cancelled row's velocity reservation, once.
 */

import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { HistoryEntry } from '../domain/request.js';
import type { PasskeyProof } from '../domain/step-up.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';
import type { StoreKeys } from './store-keys.js';

/** paused → running (store/lua/batch-resume.lua). */
const RESUME = luaScript('batch-resume');

/** approved | running | paused → stopping. */
const STOP = luaScript('batch-stop');

/** approved | running → paused with a reason (the funding check). */
const PAUSE = luaScript('batch-pause');

/** The funding check passed: rows may start (start.lua checks it). */
const FUNDED = luaScript('batch-funded');

export type Moved = { ok: true } | { ok: false; state: string | undefined };

export class BatchStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly now: () => number,
  ) {}

  private rowsKey = (id: string) => `${this.keys.prefix}:batch:${id}:rows`;

  /**
   * The batch that holds `walletId`'s turn now (batches of one wallet run in approval
   * order; the scripts keep the queue, store/lua/includes/batch.lua batchTurn and leaveTurn).
   */
  async turnHolder(walletId: string): Promise<string | undefined> {
    const member = (await this.redis.zrange(this.keys.turns, '0', '-1')).find((m) => m.startsWith(`${walletId} `));
    return member?.slice(walletId.length + 1);
  }

  /** Written just before the approval is created; an orphan (create refused) is harmless. */
  async saveRows(id: string, rows: readonly BatchRowRecord[]): Promise<void> {
    await this.redis.set(this.rowsKey(id), JSON.stringify(rows));
  }

  async rows(id: string): Promise<BatchRowRecord[]> {
    const raw = await this.redis.get(this.rowsKey(id));
    return raw ? (JSON.parse(raw) as BatchRowRecord[]) : [];
  }

  /** `passkey`: the verified assertion of a step-up batch's Resume, kept in its history. */
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

  /** Paused, with the sentence the card shows (e.g. the funding check's). */
  async pause(id: string, why: string): Promise<Moved> {
    const entry: HistoryEntry = { at: this.now(), event: 'paused', detail: why };
    const [ok, state] = (await evalScript(
      this.redis,
      PAUSE,
      2,
      this.keys.approval(id),
      this.keys.history(id),
      why,
      JSON.stringify(entry),
    )) as [number, string];
    return ok === 1 ? { ok: true } : { ok: false, state: state || undefined };
  }

  async markFunded(id: string): Promise<Moved> {
    const [ok, state] = (await evalScript(this.redis, FUNDED, 1, this.keys.approval(id))) as [number, string];
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
}
