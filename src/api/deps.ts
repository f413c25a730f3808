/**
 * What the HTTP API adapter needs (issue 21): the use cases' ports, plus its own stores and the
 * owner directory. Built once by the composition root with production defaults (apiDeps below);
 * tests pass the same objects a running Rampart holds.
 */
import type { WebClient } from '@slack/web-api';
import type { AppDeps } from '../app/deps.js';
import type { Rate } from '../domain/rate.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { IdempotencyStore } from '../store/idempotency.js';
import { RateLimiter } from '../store/rate-limiter.js';
import type { RedisClient } from '../store/redis.js';
import { BODY_LIMITS, type BodyLimits } from './http-io.js';
import { type OwnerDirectory, SlackOwnerDirectory } from './owners.js';

export interface ApiDeps extends AppDeps {
  keys: ApiKeyStore;
  idempotency: IdempotencyStore;
  owners: OwnerDirectory;
  /** 0 when this key may call now, else the ms to wait (API_RATE per key). */
  admit(keyId: string): Promise<number>;
  body: BodyLimits;
  /** Bounds the live checks against the wallet service (no Slack 3 s here, but a caller waits). */
  checkBudgetMs: number;
}

export const API_CHECK_BUDGET_MS = 10_000;

export function apiDeps(
  /** `apiKeys`: the web role's one API-key store (compose/app-deps.ts WebDeps). */
  app: AppDeps & { apiKeys: ApiKeyStore },
  redis: RedisClient,
  slack: Pick<WebClient, 'users'>,
  options: { rate?: Rate | undefined; owners?: OwnerDirectory; body?: Partial<BodyLimits> } = {},
): ApiDeps {
  const prefix = app.config.redis.prefix;
  return {
    ...app,
    keys: app.apiKeys,
    idempotency: new IdempotencyStore(redis, prefix),
    owners: options.owners ?? new SlackOwnerDirectory(slack, undefined, app.now),
    admit: (keyId) =>
      new RateLimiter(
        redis,
        `${prefix}:api:rate:${keyId}`,
        'rate' in options ? options.rate : app.config.apiRate,
      ).admit(),
    body: { ...BODY_LIMITS, ...options.body },
    checkBudgetMs: API_CHECK_BUDGET_MS,
  };
}

/** Issue 21: idempotency records kept per live key name, for the gauge and its alert. */
export async function idempotencyRecordsByKey(redis: RedisClient, prefix: string): Promise<Record<string, number>> {
  const keys = (await new ApiKeyStore(redis, prefix).list()).filter((k) => !k.revokedAt);
  const store = new IdempotencyStore(redis, prefix);
  const counts = await Promise.all(keys.map((k) => store.count(k.id)));
  return Object.fromEntries(keys.map((k, i) => [k.name, counts[i] ?? 0]));
}
