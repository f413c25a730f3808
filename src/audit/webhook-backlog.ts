/**
 * What the audit webhook still owes: per request, when
 * its next try is due, how many tries failed, and since when its oldest undelivered event has
 * waited. Times come from Rampart's clock (injectable), never from BullMQ's, so the schedule can
 * be tested over days; each due try becomes a NEW BullMQ job (BullMQ drops an add whose id it
 * still keeps, which lost every event after the 12th failure before).
 */

import { luaScript } from '../store/lua-scripts.js';
import type { RedisClient as Redis } from '../store/redis.js';
import type { RequestStore } from '../store/requests.js';
import { stateOf } from './webhook.js';

/** Delay after the n-th failed try (n ≥ 1): doubling from `firstMs`, never above `capMs`. */
export const retryDelay = (n: number, firstMs: number, capMs: number): number =>
  Math.min(capMs, firstMs * 2 ** Math.min(Math.max(n - 1, 0), 40));

const SCHEDULE = luaScript('audit-schedule');

export interface Backlog {
  /** Events not yet delivered of requests that failed a try or were found unqueued. */
  events: number;
  requests: number;
  /** When the oldest of them happened (Rampart's clock, ms); undefined when none waits. */
  oldestAt: number | undefined;
}

export class WebhookBacklog {
  readonly cursorKey: string;
  private readonly dueKey: string;
  private readonly triesKey: string;
  private readonly sinceKey: string;
  private readonly seqKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.cursorKey = `${prefix}:audit:delivered`;
    this.dueKey = `${prefix}:audit:due`;
    this.triesKey = `${prefix}:audit:tries`;
    this.sinceKey = `${prefix}:audit:since`;
    this.seqKey = `${prefix}:audit:try`;
  }

  /** A failed try: the next one is due after the capped backoff; `at` is the stuck event's time. */
  async failed(id: string, now: number, at: number, firstMs: number, capMs: number): Promise<number> {
    const n = await this.redis.hincrby(this.triesKey, id, 1);
    const next = now + retryDelay(n, firstMs, capMs);
    await this.redis.multi().zadd(this.dueKey, next, id).zadd(this.sinceKey, at, id).exec();
    return next;
  }

  /** Everything known of `id` was delivered: nothing more is due. */
  async caughtUp(id: string): Promise<void> {
    await this.redis.multi().zrem(this.dueKey, id).hdel(this.triesKey, id).zrem(this.sinceKey, id).exec();
  }

  /**
   * Requests whose try is due now. Each is leased for `leaseMs` (its job may still be lost: a
   * crash, a full queue) and given a fresh try number for its job id.
   */
  async takeDue(now: number, leaseMs: number, limit = 200): Promise<{ id: string; tryNo: number }[]> {
    const ids = await this.redis.zrangebyscore(this.dueKey, '-inf', now, 'LIMIT', 0, limit);
    const taken: { id: string; tryNo: number }[] = [];
    for (const id of ids) {
      // XX: only if still scheduled (a job that just delivered it removed it).
      const [leased, tryNo] = (await this.redis
        .multi()
        .zadd(this.dueKey, 'XX', 'CH', now + leaseMs, id)
        .incr(this.seqKey)
        .exec()) as [[null, number], [null, number]];
      if (leased[1] === 1) taken.push({ id, tryNo: tryNo[1] });
    }
    return taken;
  }

  /** The per-request lock a delivering job holds. */
  lockKey = (id: string) => `${this.prefix}:audit:lock:${id}`;

  /**
   * A request found behind its cursor (`length` history entries) with no try scheduled: one is,
   * after `graceMs` — unless, checked atomically, a job is delivering it or has caught up.
   */
  async schedule(id: string, length: number, now: number, graceMs: number): Promise<void> {
    const keys = [this.dueKey, this.sinceKey, this.cursorKey, this.lockKey(id)];
    await this.redis.eval(SCHEDULE, keys.length, ...keys, id, length, now + graceMs, now);
  }

  async isScheduled(ids: readonly string[]): Promise<boolean[]> {
    if (ids.length === 0) return [];
    const scores = await this.redis.zmscore(this.dueKey, ...ids);
    return scores.map((s) => s !== null);
  }

  /** For /metrics: read at scrape time, bounded by how many requests wait. */
  async read(store: RequestStore, limit = 1000): Promise<Backlog> {
    const [requests, first] = await Promise.all([
      this.redis.zcard(this.sinceKey),
      this.redis.zrange(this.sinceKey, '0', '0', 'WITHSCORES'),
    ]);
    if (requests === 0) return { events: 0, requests: 0, oldestAt: undefined };
    const ids = await this.redis.zrange(this.sinceKey, '0', String(limit - 1));
    const [histories, cursors] = await Promise.all([
      Promise.all(ids.map((id) => store.history(id))),
      this.redis.hmget(this.cursorKey, ...ids),
    ]);
    // State changes only: votes and notes between them are history, not events.
    const events = histories.reduce(
      (sum, h, i) => sum + h.slice(Number(cursors[i] ?? '0')).filter((e) => stateOf(e) !== undefined).length,
      0,
    );
    return { events, requests, oldestAt: first[1] === undefined ? undefined : Number(first[1]) };
  }
}
