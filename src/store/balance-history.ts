/**
 * Balance history: one snapshot per wallet per period, kept 90 days and capped, in one
 * sorted set per wallet (scored by the period's start) under the hash-tagged prefix, so it holds
 * on a Redis Cluster. A failed read is stored as a gap, never as zero. `claim` makes a period's
 * snapshot happen once however many workers share the queue.
 */

import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';

export const HISTORY_KEEP_MS = 90 * 86_400_000;
/** 90 days of 15-minute snapshots, with room: a cap that holds whatever SNAPSHOT_EVERY says. */
export const HISTORY_CAP = 9000;

export type Snapshot =
  | { at: number; gap: false; available: Record<string, number> }
  | { at: number; gap: true; why: string };

/** Adds a snapshot, then trims both ways. */
const RECORD = luaScript('balance-history-add');

export class BalanceHistory {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly cap = HISTORY_CAP,
  ) {}

  private key = (walletId: string) => `${this.prefix}:balances:${walletId}`;

  /** True for the one caller that takes this period (SET NX, kept two periods). */
  async claim(periodStart: number, periodMs: number): Promise<boolean> {
    const key = `${this.prefix}:balances:claim:${periodStart}`;
    return (await this.redis.set(key, '1', 'PX', 2 * periodMs, 'NX')) === 'OK';
  }

  /** Stores the period's snapshot of one wallet (the same period again replaces it). */
  async record(walletId: string, snapshot: Snapshot): Promise<void> {
    const member = JSON.stringify(snapshot);
    await evalScript(
      this.redis,
      RECORD,
      1,
      this.key(walletId),
      String(snapshot.at),
      member,
      String(snapshot.at - HISTORY_KEEP_MS),
      String(this.cap),
    );
  }

  /** The newest snapshot that is not a gap, if any (what App Home shows when it may not read). */
  async latest(walletId: string): Promise<Extract<Snapshot, { gap: false }> | undefined> {
    const rows = await this.redis.zrevrangebyscore(this.key(walletId), '+inf', '-inf', 'LIMIT', 0, 20);
    for (const r of rows) {
      const s = JSON.parse(r) as Snapshot;
      if (!s.gap) return s;
    }
    return undefined;
  }

  /** The newest snapshot taken at or before `at` that is not a gap, if any. */
  async before(walletId: string, at: number): Promise<Extract<Snapshot, { gap: false }> | undefined> {
    const rows = await this.redis.zrevrangebyscore(this.key(walletId), at, '-inf', 'LIMIT', 0, 20);
    for (const r of rows) {
      const s = JSON.parse(r) as Snapshot;
      if (!s.gap && s.at <= at) return s;
    }
    return undefined;
  }

  /** Snapshots at or after `since`, oldest first. */
  async since(walletId: string, since: number): Promise<Snapshot[]> {
    const rows = await this.redis.zrangebyscore(this.key(walletId), since, '+inf');
    return rows.map((r) => JSON.parse(r) as Snapshot);
  }
}
