/**
 * App Home's "balances now" — at most one service read per wallet per minute, whoever
 * opens it, across processes: a SET NX turn per wallet per minute decides who reads; the value
 * is kept for everyone else. Hash-tagged prefix: cluster-safe.
 */
import type { RedisClient } from './redis.js';

export interface CachedBalances {
  at: number;
  available: Record<string, number>;
}

export class BalanceCache {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    readonly everyMs = 60_000,
  ) {}

  private key = (walletId: string) => `${this.prefix}:home:balances:${walletId}`;

  /** True for the one caller allowed to read this wallet now (again after `everyMs`). */
  async takeTurn(walletId: string): Promise<boolean> {
    return (await this.redis.set(`${this.key(walletId)}:turn`, '1', 'PX', this.everyMs, 'NX')) === 'OK';
  }

  async get(walletId: string): Promise<CachedBalances | undefined> {
    const raw = await this.redis.get(this.key(walletId));
    return raw ? (JSON.parse(raw) as CachedBalances) : undefined;
  }

  async put(walletId: string, value: CachedBalances): Promise<void> {
    await this.redis.set(this.key(walletId), JSON.stringify(value), 'PX', 10 * this.everyMs);
  }
}
