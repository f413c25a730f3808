/**
 * App Home refreshes itself when something changes (an outcome, a freeze or its lift),
 * at most once a minute per person across processes (SET NX per person); a change inside that
 * minute is shown by one trailing refresh when the minute is up. Who to refresh: everyone who
 * opened App Home in the last week (a sorted set, hash-tagged prefix).
 */
import type { RedisClient } from '../../redis-client.js';
import type { Deps } from './deps.js';

const WEEK_MS = 7 * 86_400_000;

export class HomeRefresher {
  private readonly trailing = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly publish: (user: string) => Promise<void>,
    private readonly now: () => number,
    private readonly log: Deps['log'],
    private readonly everyMs = 60_000,
  ) {}

  private readonly viewersKey = () => `${this.prefix}:home:viewers`;
  private readonly turnKey = (user: string) => `${this.prefix}:home:refresh:${user}`;

  /** Someone opened App Home (and was just shown it): they are refreshed on changes for a week. */
  async opened(user: string): Promise<void> {
    await this.redis
      .multi()
      .zadd(this.viewersKey(), this.now(), user)
      .zremrangebyscore(this.viewersKey(), '-inf', this.now() - WEEK_MS)
      .exec();
  }

  /** Something App Home shows changed: refresh everyone who looks at it (never throws). */
  changed(): void {
    this.refreshAll().catch((err: unknown) => this.log.warn({ err }, 'could not refresh App Home'));
  }

  private async refreshAll(): Promise<void> {
    const users = await this.redis.zrangebyscore(this.viewersKey(), this.now() - WEEK_MS, '+inf');
    await Promise.all(users.map((u) => this.refresh(u)));
  }

  private async refresh(user: string): Promise<void> {
    if (this.trailing.has(user)) return;
    if ((await this.redis.set(this.turnKey(user), '1', 'PX', this.everyMs, 'NX')) === 'OK') {
      await this.publish(user);
      return;
    }
    const wait = Math.max(1, await this.redis.pttl(this.turnKey(user)));
    this.trailing.add(user);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.trailing.delete(user);
      this.refresh(user).catch((err: unknown) => this.log.warn({ err, user }, 'could not refresh App Home'));
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
