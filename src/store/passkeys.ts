/**
 * Approvers' passkeys in Redis: one hash per approver (credential id → JSON) and one
 * of signature counters beside it, so the counter moves in a script without re-encoding the
 * record. Every key sits under Rampart's prefix, so one hash slot on a cluster.
 */
import { type Passkey, type PasskeyCard, passkeySchema, type StoredPasskey } from '../domain/passkey.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { repliesOf } from './redis-errors.js';
import { evalScript } from './run-script.js';

export { type Passkey, passkeySchema, type StoredPasskey };

/** Compare-and-set of one stored passkey. */
const SWAP = luaScript('passkey-swap');

export class PasskeyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** Both keys of one approver; the step-up scripts take the counters key. */
  key = (user: string) => `${this.prefix}:passkey:${user}`;
  countersKey = (user: string) => `${this.prefix}:passkey:${user}:counters`;
  private get usersKey() {
    return `${this.prefix}:passkey:users`;
  }
  /** `<owner>/<credential id>` → the approval card's channel and ts (redrawn once decided). */
  private get cardsKey() {
    return `${this.prefix}:passkey:cards`;
  }

  async setCard(user: string, id: string, card: PasskeyCard): Promise<void> {
    await this.redis.hset(this.cardsKey, `${user}/${id}`, JSON.stringify(card));
  }

  /** The card of a pending passkey, once: the one caller that decided it redraws it. */
  async takeCard(user: string, id: string): Promise<PasskeyCard | undefined> {
    const [raw] = repliesOf(
      await this.redis.multi().hget(this.cardsKey, `${user}/${id}`).hdel(this.cardsKey, `${user}/${id}`).exec(),
    );
    if (typeof raw !== 'string') return undefined;
    const card = JSON.parse(raw) as Partial<PasskeyCard>;
    return typeof card.channel === 'string' && typeof card.ts === 'string'
      ? { channel: card.channel, ts: card.ts }
      : undefined;
  }

  async add(passkey: Passkey, counter: number): Promise<void> {
    repliesOf(
      await this.redis
        .multi()
        .hset(this.key(passkey.user), passkey.id, JSON.stringify(passkeySchema.parse(passkey)))
        .hset(this.countersKey(passkey.user), passkey.id, String(counter))
        .sadd(this.usersKey, passkey.user)
        .exec(),
    );
  }

  async list(user: string): Promise<StoredPasskey[]> {
    const [records, counters] = await Promise.all([
      this.redis.hgetall(this.key(user)),
      this.redis.hgetall(this.countersKey(user)),
    ]);
    return Object.entries(records)
      .map(([id, json]) => ({ ...passkeySchema.parse(JSON.parse(json)), counter: Number(counters[id] ?? 0) }))
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async get(user: string, id: string): Promise<StoredPasskey | undefined> {
    const [json, counter] = await Promise.all([
      this.redis.hget(this.key(user), id),
      this.redis.hget(this.countersKey(user), id),
    ]);
    return json ? { ...passkeySchema.parse(JSON.parse(json)), counter: Number(counter ?? 0) } : undefined;
  }

  /** Passkeys that count for a payment now: active and out of their cool-down. */
  async usable(user: string, now: number): Promise<StoredPasskey[]> {
    return (await this.list(user)).filter((p) => p.status === 'active' && p.usableFrom <= now);
  }

  /**
   * pending → active, once; false when it is gone or already active. A compare-and-set on the
   * stored JSON, so a removal or another approval in between wins and nothing comes back to life.
   */
  async activate(user: string, id: string, approvedBy: string, usableFrom: number): Promise<boolean> {
    const stored = await this.redis.hget(this.key(user), id);
    if (!stored) return false;
    const record = passkeySchema.parse(JSON.parse(stored));
    if (record.status !== 'pending') return false;
    const next: Passkey = { ...record, status: 'active', approvedBy, usableFrom };
    return (await evalScript(this.redis, SWAP, 1, this.key(user), id, stored, JSON.stringify(next))) === 1;
  }

  /** Removes one passkey (or all of the approver's); returns how many went. */
  async revoke(user: string, id?: string): Promise<number> {
    const ids = id === undefined ? Object.keys(await this.redis.hgetall(this.key(user))) : [id];
    if (ids.length === 0) return 0;
    const [removed] = repliesOf(
      await this.redis
        .multi()
        .hdel(this.key(user), ...ids)
        .hdel(this.countersKey(user), ...ids)
        .exec(),
    );
    if ((await this.redis.hlen(this.key(user))) === 0) await this.redis.srem(this.usersKey, user);
    return Number(removed);
  }

  /** How many approvers hold a passkey that counts at `now` (rampart doctor). */
  async usableHolders(now: number): Promise<number> {
    const users = await this.users();
    const usable = await Promise.all(users.map((u) => this.usable(u, now)));
    return usable.filter((l) => l.length > 0).length;
  }

  /** Approvers who hold at least one passkey (any status). */
  async users(): Promise<string[]> {
    return (await this.redis.smembers(this.usersKey)).sort();
  }
}
