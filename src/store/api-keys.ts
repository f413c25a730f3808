/**
 * API keys in Redis: the key's settings and the SHA-256 of its token, never the
 * token. Every key lives under Rampart's hash-tagged prefix, so this holds on a Redis Cluster.
 * Also the indexes of the requests each key made, for reads (by owner and all); the open ones
 * for --max-open are kept by the create script itself (StoreKeys.keyOpen, store/lua/create.lua).
 */
import { createHash } from 'node:crypto';
import type { ApiKey } from '../domain/api-key.js';
import type { RedisClient } from './redis.js';

/** What is stored instead of the token: its SHA-256, hex. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface StoredKey {
  key: ApiKey;
  /** Hex SHA-256 of the whole token. */
  tokenHash: string;
}

export class ApiKeyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private keyKey = (id: string) => `${this.prefix}:apikey:${id}`;
  private ownerKey = (owner: string) => `${this.prefix}:apikey:owner:${owner}:requests`;
  private get allKey() {
    return `${this.prefix}:apikeys`;
  }
  private get namesKey() {
    return `${this.prefix}:apikey:names`;
  }
  private get requestsKey() {
    return `${this.prefix}:apikey:requests`;
  }

  /** Stores a new key; false when an unrevoked key already has this name. */
  async create(stored: StoredKey): Promise<boolean> {
    const { key } = stored;
    const claimed = await this.redis.hsetnx(this.namesKey, key.name, key.id);
    if (claimed === 0) return false;
    await this.redis.hset(this.keyKey(key.id), { key: JSON.stringify(key), tokenHash: stored.tokenHash });
    await this.redis.sadd(this.allKey, key.id);
    return true;
  }

  async get(id: string): Promise<StoredKey | undefined> {
    const h = await this.redis.hgetall(this.keyKey(id));
    if (!h.key || !h.tokenHash) return undefined;
    const key = JSON.parse(h.key) as ApiKey;
    if (h.lastUsedAt) key.lastUsedAt = Number(h.lastUsedAt);
    return { key, tokenHash: h.tokenHash };
  }

  /** The id of the unrevoked key with this name, if any. */
  async idByName(name: string): Promise<string | undefined> {
    return (await this.redis.hget(this.namesKey, name)) ?? undefined;
  }

  async list(): Promise<ApiKey[]> {
    const ids = (await this.redis.smembers(this.allKey)).sort();
    const keys = await Promise.all(ids.map((id) => this.get(id)));
    return keys.flatMap((k) => (k ? [k.key] : [])).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Marks the key revoked (kept for the record); its name becomes free again. */
  async revoke(id: string, at: number): Promise<ApiKey | undefined> {
    const stored = await this.get(id);
    if (!stored) return undefined;
    if (stored.key.revokedAt !== undefined) return stored.key;
    const key = { ...stored.key, revokedAt: at };
    await this.redis.hset(this.keyKey(id), 'key', JSON.stringify({ ...key, lastUsedAt: undefined }));
    const holder = await this.redis.hget(this.namesKey, key.name);
    if (holder === id) await this.redis.hdel(this.namesKey, key.name);
    return key;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.redis.hset(this.keyKey(id), 'lastUsedAt', String(at));
  }

  /** Records a request made through the API, for reads (after its create). */
  async recordRequest(owner: string, requestId: string, createdAt: number): Promise<void> {
    await Promise.all([
      this.redis.zadd(this.ownerKey(owner), createdAt, requestId),
      this.redis.zadd(this.requestsKey, createdAt, requestId),
    ]);
  }

  /**
   * Request ids made through the API, newest first, created before `before` (exclusive, as
   * "createdAt:id" of the last one seen) and at or after `since` (ms); `owner` narrows to one owner.
   */
  async requestIds(
    owner: string | undefined,
    page: { since: number; before: { at: number; id: string } | undefined; limit: number },
  ): Promise<Array<{ id: string; at: number }>> {
    const key = owner === undefined ? this.requestsKey : this.ownerKey(owner);
    const max = page.before === undefined ? '+inf' : String(page.before.at);
    // Same-millisecond neighbours of the cursor are filtered below, so fetch a little more.
    const rows = await this.redis.zrevrangebyscore(
      key,
      max,
      String(page.since),
      'WITHSCORES',
      'LIMIT',
      '0',
      String(page.limit + 50),
    );
    const out: Array<{ id: string; at: number }> = [];
    for (let i = 0; i + 1 < rows.length; i += 2) out.push({ id: rows[i] ?? '', at: Number(rows[i + 1]) });
    const b = page.before;
    const after = b === undefined ? out : out.filter((r) => r.at < b.at || (r.at === b.at && r.id < b.id));
    return after.slice(0, page.limit);
  }
}
