/**
 * The address book in Redis (domain/address-book.ts): one hash per entry at
 * `<prefix>:book:entry:<A-n>`, the live entry of each destination key in `<prefix>:book:index`
 * (key → id), the last removed one in `<prefix>:book:removed` (refused in every mode until added
 * again), every entry by approval time in `<prefix>:book:entries`. The create script seals each
 * execution with the live entry of its destination key (store/lua.ts CREATE) and the start script
 * reads the entry's hash (store/approval-lua.ts START), both from the same names, built here.
 */
import {
  type AddressEntry,
  type BookStanding,
  type EntryInput,
  walletsField,
  walletsOfField,
} from '../domain/address-book.js';
import type { ChainId } from '../domain/assets.js';
import { destinationKey } from '../domain/destination-key.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { readReplies } from './redis-errors.js';
import { evalScript } from './run-script.js';

/** The hash of entry `id` under `prefix`: START builds the same name from the execution's key. */
export const entryKey = (prefix: string, id: string): string => `${prefix}:book:entry:${id}`;
export const bookIndexKey = (prefix: string): string => `${prefix}:book:index`;

const ADD = luaScript('book-add');
const REMOVE = luaScript('book-remove');
const SEED = luaScript('book-seed');

const toEntry = (h: Record<string, string>): AddressEntry | undefined => {
  if (!h.id) return undefined;
  return {
    id: h.id,
    key: h.key ?? '',
    name: h.name ?? '',
    chain: (h.chain ?? 'base') as ChainId,
    address: h.address ?? '',
    wallets: walletsOfField(h.wallets ?? '*'),
    addedBy: h.addedBy ?? '',
    approvedBy: h.approvedBy ?? '',
    requestId: h.requestId ?? '',
    approvedAt: Number(h.approvedAt ?? 0),
    usableAt: Number(h.usableAt ?? 0),
    ...(h.removedAt ? { removedAt: Number(h.removedAt) } : {}),
    ...(h.removedBy ? { removedBy: h.removedBy } : {}),
  };
};

export type AddOutcome = { ok: true; ids: string[]; usableAt: number } | { ok: false; taken: string[] };

export class AddressBook {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private get k() {
    const p = this.prefix;
    return {
      seq: `${p}:book:seq`,
      index: bookIndexKey(p),
      removed: `${p}:book:removed`,
      entries: `${p}:book:entries`,
      seeded: `${p}:book:seeded`,
      seed: `${p}:book:seed`,
    };
  }

  /** Records approved entries, cooling for `cooldownMs` from Redis's clock; all or none. */
  async add(
    entries: readonly EntryInput[],
    by: { addedBy: string; approvedBy: string; requestId: string },
    cooldownMs: number,
  ): Promise<AddOutcome> {
    const k = this.k;
    const args = entries.flatMap((e) => [
      destinationKey(e.chain, e.address),
      e.name.trim(),
      e.chain,
      e.address.trim(),
      walletsField(e.wallets),
    ]);
    const r = (await evalScript(
      this.redis,
      ADD,
      6,
      k.seq,
      k.index,
      k.removed,
      k.entries,
      k.seed,
      k.seeded,
      String(cooldownMs),
      by.addedBy,
      by.approvedBy,
      by.requestId,
      entryKey(this.prefix, ''),
      ...args,
    )) as [number, ...string[]];
    const [ok, ...rest] = r;
    if (ok !== 1) return { ok: false, taken: rest };
    const [usable, ...ids] = rest;
    return { ok: true, ids, usableAt: Number(usable) };
  }

  /** Removes a live entry at once; false when it is not live (unknown, or removed already). */
  async remove(id: string, by: string): Promise<boolean> {
    const k = this.k;
    return (await evalScript(this.redis, REMOVE, 3, entryKey(this.prefix, id), k.index, k.removed, id, by)) === 1;
  }

  async get(id: string): Promise<AddressEntry | undefined> {
    return toEntry(await this.redis.hgetall(entryKey(this.prefix, id)));
  }

  /** Every entry, live and removed, oldest first. */
  async list(): Promise<AddressEntry[]> {
    const ids = await this.redis.zrange(this.k.entries, '0', '-1');
    const all = await Promise.all(ids.map((id) => this.get(id)));
    return all.filter((e): e is AddressEntry => e !== undefined);
  }

  /** The live entry for a destination key, or the last removed one, or none. */
  async standing(key: string): Promise<BookStanding> {
    const [live, removed] = await Promise.all([
      this.redis.hget(this.k.index, key),
      this.redis.hget(this.k.removed, key),
    ]);
    const id = live ?? removed;
    const entry = id ? await this.get(id) : undefined;
    if (!entry) return { kind: 'none' };
    return live ? { kind: 'entry', entry } : { kind: 'removed', entry };
  }

  /**
   * The name of the live entry of each destination key (undefined: none), in at most two round
   * trips whatever the count: one HMGET of the index, then the names of the entries found.
   */
  async liveNames(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const ids = await this.redis.hmget(this.k.index, ...keys);
    const found = ids.filter((id): id is string => id !== null);
    if (found.length === 0) return keys.map(() => undefined);
    const replies = (await readReplies(
      found.reduce((p, id) => p.hget(entryKey(this.prefix, id), 'name'), this.redis.pipeline()).exec(),
    )) as (string | null)[];
    const names = new Map(found.map((id, i) => [id, replies[i]]));
    return ids.map((id) => (id === null ? undefined : (names.get(id) ?? '')));
  }

  /** The seed from `rampart addresses import --from-paid` was approved: the default mode becomes warn. */
  async seeded(): Promise<boolean> {
    return (await this.redis.exists(this.k.seeded)) === 1;
  }

  /**
   * Sets the open-seed marker to `to` ('' removes it) when it is `from` now ('' for none), the
   * claim expiring after `ttlMs` (0: never); otherwise says what it is (book-seed.lua).
   */
  async swapSeed(from: string, to: string, ttlMs = 0): Promise<{ ok: true } | { ok: false; now: string }> {
    const [ok, now = ''] = (await evalScript(this.redis, SEED, 1, this.k.seed, from, to, String(ttlMs))) as [
      number,
      string?,
    ];
    return ok === 1 ? { ok: true } : { ok: false, now };
  }
}
