/**
 * Issue 13's Redis state: the velocity ledger (one sorted set per wallet id and asset code,
 * request id scored by approval time, beside a hash of minor units) and the freeze flag. Every
 * key derives from the one prefix, so a hash-tagged prefix keeps them in one cluster slot.
 */

import type { VelocityRule, VelocitySubject, VelocityUsage } from '../domain/velocity.js';
import type { RedisClient } from './redis.js';
import type { VoteControls } from './requests.js';

/** Ledger entries are kept at least this long, so a rule added later still sees a month back. */
const MIN_RETENTION_MS = 31 * 86_400_000;

export interface FreezeState {
  by: string;
  at: number;
  reason: string;
}

export class ControlStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  get freezeKey(): string {
    return `${this.prefix}:freeze`;
  }
  ledgerKey = (s: Pick<VelocitySubject, 'walletId' | 'code'>) => `${this.prefix}:velocity:${s.walletId}:${s.code}`;
  amountsKey = (s: Pick<VelocitySubject, 'walletId' | 'code'>) => `${this.ledgerKey(s)}:amounts`;

  /** What the VOTE script needs to check the freeze and, for money, the limits. */
  voteControls(subject: VelocitySubject | undefined, rules: readonly VelocityRule[]): VoteControls {
    if (!subject) return { freezeKey: this.freezeKey };
    const longest = Math.max(MIN_RETENTION_MS, ...rules.map((r) => r.windowMs));
    return {
      freezeKey: this.freezeKey,
      ledger: {
        key: this.ledgerKey(subject),
        amountsKey: this.amountsKey(subject),
        units: subject.units,
        retentionMs: longest,
        limits: rules.map((r) => ({ limit: r.limit, windowMs: r.windowMs })),
      },
    };
  }

  /** Used minor units per rule at `now` (a read for people; the vote re-checks atomically). */
  async usage(subject: VelocitySubject, rules: readonly VelocityRule[], now: number): Promise<VelocityUsage[]> {
    if (rules.length === 0) return [];
    const longest = Math.max(...rules.map((r) => r.windowMs));
    const rows = await this.redis.zrangebyscore(this.ledgerKey(subject), `(${now - longest}`, '+inf', 'WITHSCORES');
    const ids: string[] = [];
    const at: number[] = [];
    for (let i = 0; i + 1 < rows.length; i += 2) {
      ids.push(rows[i] ?? '');
      at.push(Number(rows[i + 1]));
    }
    const units = ids.length > 0 ? await this.redis.hmget(this.amountsKey(subject), ...ids) : [];
    return rules.map((rule) => {
      let used = 0n;
      ids.forEach((_, i) => {
        if ((at[i] ?? 0) > now - rule.windowMs) used += BigInt(units[i] ?? '0');
      });
      return { rule, used };
    });
  }

  /** A request that ended `failed` (or was cancelled after approval) gives its headroom back. */
  async releaseHeadroom(subject: VelocitySubject, requestId: string): Promise<void> {
    await this.redis.multi().zrem(this.ledgerKey(subject), requestId).hdel(this.amountsKey(subject), requestId).exec();
  }

  async freeze(): Promise<FreezeState | undefined> {
    const raw = await this.redis.get(this.freezeKey);
    return raw ? (JSON.parse(raw) as FreezeState) : undefined;
  }

  /** Sets the freeze unless one is on; returns the freeze in force afterwards and whether it is new. */
  async setFreeze(state: FreezeState): Promise<{ created: boolean; state: FreezeState }> {
    const ok = await this.redis.set(this.freezeKey, JSON.stringify(state), 'NX');
    if (ok === 'OK') return { created: true, state };
    return { created: false, state: (await this.freeze()) ?? state };
  }
}
