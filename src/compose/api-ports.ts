/**
 * The HTTP API's ports (app/api-keys/ports.ts), built here with the other stores: the
 * Idempotency-Key records, the owner directory over Slack's users.info and the per-key rate
 * limiter (API_RATE). Tests pass their own owner directory, clock and rate.
 */
import type { WebClient } from '@slack/web-api';
import { SlackOwnerDirectory } from '../adapters/api/owners.js';
import type { ApiPorts, OwnerDirectory } from '../app/api-keys/ports.js';
import type { Config } from '../config.js';
import type { Rate } from '../domain/rate.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { IdempotencyStore } from '../store/idempotency.js';
import { RateLimiter } from '../store/rate-limiter.js';
import type { RedisClient } from '../store/redis.js';

export const API_CHECK_BUDGET_MS = 10_000;

export function apiPorts(
  deps: { config: Pick<Config, 'redis' | 'apiRate'>; now: () => number },
  redis: RedisClient,
  slack: Pick<WebClient, 'users'>,
  options: { rate?: Rate | undefined; owners?: OwnerDirectory } = {},
): ApiPorts {
  const prefix = deps.config.redis.prefix;
  const rate = 'rate' in options ? options.rate : deps.config.apiRate;
  return {
    idempotency: new IdempotencyStore(redis, prefix),
    owners: options.owners ?? new SlackOwnerDirectory(slack, undefined, deps.now),
    admit: (keyId) => new RateLimiter(redis, `${prefix}:api:rate:${keyId}`, rate).admit(),
    checkBudgetMs: API_CHECK_BUDGET_MS,
  };
}

/** Idempotency records kept per live key name, for the gauge and its alert. */
export async function idempotencyRecordsByKey(redis: RedisClient, prefix: string): Promise<Record<string, number>> {
  const keys = (await new ApiKeyStore(redis, prefix).list()).filter((k) => !k.revokedAt);
  const store = new IdempotencyStore(redis, prefix);
  const counts = await Promise.all(keys.map((k) => store.count(k.id)));
  return Object.fromEntries(keys.map((k, i) => [k.name, counts[i] ?? 0]));
}
