/**
 * The time a modal submission has before its ack. Slack waits 3 s; everything before
 * the ack, Redis included, must fit in `answerByMs`. The create itself must have run by
 * `createByMs`, checked on Redis's own clock (store.create), so that a create Redis only gets to
 * after a stall is refused rather than left without a card: whoever stopped waiting can then
 * say "nothing was submitted" and be right.
 */
import { performance } from 'node:perf_hooks';
import { withDeadline } from './deadline.js';

export const SUBMIT_TIMING = { createByMs: 2_100, answerByMs: 2_500 } as const;

export class SubmitBudget {
  readonly startedAt: number;

  constructor(
    private readonly timing: { createByMs: number; answerByMs: number } = SUBMIT_TIMING,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.startedAt = clock();
  }

  now(): number {
    return this.clock();
  }

  /** Milliseconds left until the create's deadline or the answer's (never negative). */
  left(until: 'createBy' | 'answerBy'): number {
    const at = this.startedAt + (until === 'createBy' ? this.timing.createByMs : this.timing.answerByMs);
    return Math.max(0, at - this.clock());
  }

  /** Work before the create (reads, the new id) must end before the create's deadline. */
  beforeCreate<T>(p: Promise<T>): Promise<T> {
    return withDeadline(p, this.left('createBy'));
  }

  /** The create's answer is awaited until the ack must go. */
  untilAnswer<T>(p: Promise<T>): Promise<T> {
    return withDeadline(p, this.left('answerBy'));
  }

  /**
   * The create's deadline on Redis's clock, from a Redis time read that reached us at local
   * `readAt`: Redis read it no later than that, so its clock is at least as far on at any later
   * local moment, and a create that runs after the local deadline is always refused.
   */
  createByOnRedis(redisNowMs: number, readAt: number): number {
    return redisNowMs + (this.startedAt + this.timing.createByMs - readAt);
  }
}
