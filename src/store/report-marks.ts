/**
 * The weekly report's run marks — SET NX on the run's moment, so one worker posts a
 * week's report however many share the queue (kept two weeks; hash-tagged prefix: one slot).
 */
import type { RedisClient } from './redis.js';

const KEEP_MS = 14 * 86_400_000;

export class ReportMarks {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** True for the one caller that takes this run. */
  async claimWeekly(runAt: number): Promise<boolean> {
    return (await this.redis.set(this.weekly(runAt), '1', 'PX', KEEP_MS, 'NX')) === 'OK';
  }

  /** Gives the run back when nothing was posted, so a retry may take it. */
  async releaseWeekly(runAt: number): Promise<void> {
    await this.redis.del(this.weekly(runAt));
  }

  private weekly = (runAt: number) => `${this.prefix}:report:weekly:${runAt}`;
}
