/**
 * The second opinion's answers (SCREENING_URL), kept per destination key for
 * SCREENING_URL_CACHE so a destination is asked at most once per period. Only answers are kept:
 * a destination the service did not answer for is asked again next time.
 */
import { z } from 'zod';
import type { SecondOpinion } from '../domain/rules/second-opinion.js';
import type { RedisClient } from './redis.js';
import type { StoreKeys } from './store-keys.js';

const answerSchema = z.object({
  kind: z.literal('answered'),
  identifications: z.array(z.object({ category: z.string(), name: z.string() })),
});

export class ScreeningAnswers {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  private key = (destination: string) => `${this.keys.prefix}:screening:answer:${destination}`;

  /** The kept answer per destination key, in order; undefined where none is kept (or it is unreadable). */
  async get(destinations: readonly string[]): Promise<(SecondOpinion | undefined)[]> {
    if (destinations.length === 0) return [];
    const raw = await this.redis.mget(...destinations.map(this.key));
    return raw.map((r) => {
      if (r === null) return undefined;
      try {
        const parsed = answerSchema.safeParse(JSON.parse(r));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    });
  }

  /** Keeps each answer for `ttlMs`, in one round trip. */
  async put(answers: ReadonlyArray<readonly [string, SecondOpinion]>, ttlMs: number): Promise<void> {
    if (answers.length === 0) return;
    const m = this.redis.multi();
    for (const [destination, answer] of answers) m.set(this.key(destination), JSON.stringify(answer), 'PX', ttlMs);
    await m.exec();
  }
}
