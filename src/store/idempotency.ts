/**
 * Idempotency-Key records of the HTTP API (the IETF httpapi draft's semantics). One
 * record per (API key, Idempotency-Key): the body's fingerprint, when the record began (its
 * generation: the request's create claim is named after it) and, once answered, the stored
 * answer. An in-flight lock (SET NX PX) says another attempt is running. The request itself is
 * never created twice: the create script's submission claim does that, in one step with the create.
 */

import { createHash, randomUUID } from 'node:crypto';
import { type IdempotencyRecord, RETENTION_MS, type StoredAnswer } from '../domain/idempotency.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';

export type { IdempotencyRecord, StoredAnswer };
export { RETENTION_MS };

export const IN_FLIGHT_MS = 30_000;
export const MAX_RECORDS_PER_KEY = 10_000;
/** Redis forgets a record a day after the rule does, whatever the clocks say. */
const REDIS_TTL_MS = RETENTION_MS + 86_400_000;

/** Compare-and-delete: only the attempt that took the lock releases it. */
const UNLOCK = luaScript('lock-release');

export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly maxPerKey = MAX_RECORDS_PER_KEY,
  ) {}

  /** The Idempotency-Key is hashed: any characters the client chose stay out of key names. */
  private id = (apiKeyId: string, key: string) =>
    `${apiKeyId}:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
  private recordKey = (apiKeyId: string, key: string) => `${this.prefix}:idem:${this.id(apiKeyId, key)}`;
  private lockKey = (apiKeyId: string, key: string) => `${this.recordKey(apiKeyId, key)}:lock`;
  private indexKey = (apiKeyId: string) => `${this.prefix}:idem-index:${apiKeyId}`;

  /** The name of the create claim for this record's generation (store.create's `submission`). */
  submission(apiKeyId: string, key: string, since: number): string {
    return `api:${this.id(apiKeyId, key)}:${since}`;
  }

  async read(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const raw = await this.redis.get(this.recordKey(apiKeyId, key));
    return raw ? (JSON.parse(raw) as IdempotencyRecord) : undefined;
  }

  /** Writes the record (a new generation or its answer) and keeps at most maxPerKey per API key. */
  async write(apiKeyId: string, key: string, record: IdempotencyRecord): Promise<void> {
    const recordKey = this.recordKey(apiKeyId, key);
    const index = this.indexKey(apiKeyId);
    await this.redis.set(recordKey, JSON.stringify(record), 'PX', REDIS_TTL_MS);
    await this.redis.zadd(index, record.since, recordKey);
    const excess = (await this.redis.zcard(index)) - this.maxPerKey;
    if (excess > 0) {
      // The oldest records go first (at most 10,000 per key).
      const oldest = await this.redis.zrange(index, '0', String(excess - 1));
      if (oldest.length > 0) {
        await this.redis.del(...oldest);
        await this.redis.zrem(index, ...oldest);
      }
    }
  }

  async forget(apiKeyId: string, key: string): Promise<void> {
    const recordKey = this.recordKey(apiKeyId, key);
    await this.redis.del(recordKey);
    await this.redis.zrem(this.indexKey(apiKeyId), recordKey);
  }

  /** A token when this attempt may run, undefined while another one is in flight. */
  async lock(apiKeyId: string, key: string): Promise<string | undefined> {
    const token = randomUUID();
    const ok = await this.redis.set(this.lockKey(apiKeyId, key), token, 'PX', IN_FLIGHT_MS, 'NX');
    return ok === 'OK' ? token : undefined;
  }

  async unlock(apiKeyId: string, key: string, token: string): Promise<void> {
    await evalScript(this.redis, UNLOCK, 1, this.lockKey(apiKeyId, key), token);
  }

  /** How many records an API key holds (the gauge). */
  async count(apiKeyId: string): Promise<number> {
    return this.redis.zcard(this.indexKey(apiKeyId));
  }
}
