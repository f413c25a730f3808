/**
 * The sanctions list in Redis: members (destination keys) at one fixed set `<prefix>:screening:list`,
 * its identity at `<prefix>:screening:meta`, every load and refusal appended to
 * `<prefix>:screening:history` (the list's audit trail). A load fills `<prefix>:screening:next`
 * and swaps it in with SWAP, one script, under a lease (one loader at a time): the start script
 * (store/lua/start.lua) reads the fixed key only, so it sees the old list or the new one,
 * never half of either.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ScreeningMeta } from '../domain/rules/screening.js';
import type { ScreeningList } from '../domain/screening-list.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';
import { ScreeningAnswers } from './screening-answers.js';
import type { StoreKeys } from './store-keys.js';

/** SADD this many members per command: 20,000 addresses in 4 pipelined commands. */
const CHUNK = 5_000;
/** A loader holds the lease this long at most (a crashed loader frees it by itself). */
const LEASE_MS = 60_000;
/** How long a second loader waits for the first before giving up. */
const WAIT_FOR_LEASE_MS = 60_000;

/** The swap (store/lua/screening-swap.lua): refuses an older or, unless accepted, shrunken list. */
const SWAP = luaScript('screening-swap');
/** The lease's compare-and-delete (store/lua/lock-release.lua). */
const RELEASE = luaScript('lock-release');

export type LoadOutcome =
  | { kind: 'loaded'; meta: ScreeningMeta; removed: string[] }
  /** The same bytes as the current list: only its confirmation time moved. */
  | { kind: 'confirmed'; meta: ScreeningMeta }
  | { kind: 'older'; current: string }
  | { kind: 'removals'; count: number; sample: string[] }
  | { kind: 'busy' };

const metaSchema = z.object({
  name: z.string(),
  published: z.string(),
  sha256: z.string(),
  count: z.coerce.number(),
  families: z.string().transform((s) => z.record(z.string(), z.number()).parse(JSON.parse(s))),
  loadedBy: z.string(),
  source: z.string(),
  loadedAt: z.coerce.number(),
  confirmedAt: z.coerce.number(),
});

export class ScreeningStore {
  readonly list: string;
  readonly meta: string;
  private readonly next: string;
  private readonly lease: string;
  private readonly history: string;

  /** The second opinion's kept answers (SCREENING_URL_CACHE). */
  readonly answers: ScreeningAnswers;

  constructor(
    private readonly redis: RedisClient,
    keys: StoreKeys,
  ) {
    this.answers = new ScreeningAnswers(redis, keys);
    this.list = keys.screeningList;
    this.meta = keys.screeningMeta;
    this.next = `${keys.prefix}:screening:next`;
    this.lease = `${keys.prefix}:screening:lease`;
    this.history = `${keys.prefix}:screening:history`;
  }

  /** The list's identity, or undefined when none is loaded. */
  async current(): Promise<ScreeningMeta | undefined> {
    const raw = await this.redis.hgetall(this.meta);
    if (!raw.sha256) return undefined;
    return metaSchema.parse(raw);
  }

  /** Which of `keys` are listed, in one command (SMISMEMBER), with the list's identity. */
  async check(keys: readonly string[]): Promise<{ meta: ScreeningMeta | undefined; listed: boolean[] }> {
    const [meta, flags] = await Promise.all([
      this.current(),
      keys.length > 0 ? this.redis.smismember(this.list, ...keys) : Promise.resolve([]),
    ]);
    return { meta, listed: flags.map((f) => f === 1) };
  }

  /** The load history, newest last: loads, refusals and the addresses each removed. */
  async trail(): Promise<Record<string, unknown>[]> {
    return (await this.redis.lrange(this.history, 0, -1)).map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Loads `list` under the lease; the swap refuses an older or (unless accepted) shrunken list. */
  async load(
    list: ScreeningList,
    who: { by: string; source: string; now: number; acceptRemovals: boolean },
    waitMs = WAIT_FOR_LEASE_MS,
  ): Promise<LoadOutcome> {
    const token = randomUUID();
    if (!(await this.takeLease(token, waitMs))) return { kind: 'busy' };
    try {
      const before = await this.current();
      if (before && before.sha256 === list.sha256) {
        await this.redis.hset(this.meta, 'confirmedAt', String(who.now));
        return { kind: 'confirmed', meta: { ...before, confirmedAt: who.now } };
      }
      if (before && list.published < before.published) return { kind: 'older', current: before.published };
      await this.fill(list.keys);
      const meta: ScreeningMeta = {
        name: list.name,
        published: list.published,
        sha256: list.sha256,
        count: list.keys.length,
        families: list.families,
        loadedBy: who.by,
        source: who.source,
        loadedAt: who.now,
        confirmedAt: who.now,
      };
      const fields = { ...meta, families: JSON.stringify(meta.families) };
      const entry = { at: who.now, event: 'loaded', by: who.by, source: who.source, ...pick(meta) };
      const r = (await evalScript(
        this.redis,
        SWAP,
        5,
        this.list,
        this.meta,
        this.next,
        this.lease,
        this.history,
        token,
        list.published,
        JSON.stringify(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))),
        who.acceptRemovals ? '1' : '0',
        JSON.stringify(entry),
      )) as string[];
      const [kind, first, ...rest] = r;
      if (kind === 'older') return { kind: 'older', current: first ?? '' };
      if (kind === 'removals') return { kind: 'removals', count: Number(first), sample: rest };
      if (kind === 'lease') return { kind: 'busy' };
      return { kind: 'loaded', meta, removed: rest };
    } finally {
      await evalScript(this.redis, RELEASE, 1, this.lease, token).catch(() => undefined);
    }
  }

  private async takeLease(token: string, waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      if ((await this.redis.set(this.lease, token, 'PX', LEASE_MS, 'NX')) === 'OK') return true;
      if (Date.now() >= until) return false;
      await sleep(50);
    }
  }

  private async fill(keys: readonly string[]): Promise<void> {
    const p = this.redis.pipeline().del(this.next);
    for (let i = 0; i < keys.length; i += CHUNK) p.sadd(this.next, ...keys.slice(i, i + CHUNK));
    const replies = await p.exec();
    const failed = replies?.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }
}

const pick = (m: ScreeningMeta) => ({ name: m.name, published: m.published, sha256: m.sha256, count: m.count });
