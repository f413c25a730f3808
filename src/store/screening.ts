/**
 * The sanctions list in Redis: members (destination keys) at one fixed set `<prefix>:screening:list`,
 * its identity at `<prefix>:screening:meta`, every load and refusal appended to
 * `<prefix>:screening:history` (the list's audit trail). A load fills `<prefix>:screening:next`
 * and swaps it in with SWAP, one script, under a lease (one loader at a time): the start script
 * (store/approval-lua.ts START) reads the fixed key only, so it sees the old list or the new one,
 * never half of either.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ScreeningMeta } from '../domain/rules/screening.js';
import type { ScreeningList } from '../domain/screening-list.js';
import type { RedisClient } from './redis.js';
import { evalScript } from './run-script.js';
import type { StoreKeys } from './store-keys.js';

/** SADD this many members per command: 20,000 addresses in 4 pipelined commands. */
const CHUNK = 5_000;
/** A loader holds the lease this long at most (a crashed loader frees it by itself). */
const LEASE_MS = 60_000;
/** How long a second loader waits for the first before giving up. */
const WAIT_FOR_LEASE_MS = 60_000;
const HISTORY_KEPT = 200;

/**
 * KEYS: list, meta, next, lease, history. ARGV: lease token, publication date (YYYY-MM-DD), meta
 * fields JSON, '1' to accept removals, history entry JSON (without `removed`).
 * Returns {'loaded', removed count, removed…} or {'older', current date} or {'removals', count,
 * first few…} or {'lease'} (the lease was lost: nothing changed). A refusal drops `next`.
 */
const SWAP = `
if redis.call('GET', KEYS[4]) ~= ARGV[1] then redis.call('DEL', KEYS[3]) return {'lease'} end
local current = redis.call('HGET', KEYS[2], 'published')
if current and ARGV[2] < current then
  redis.call('DEL', KEYS[3])
  return {'older', current}
end
local removed = {}
if redis.call('EXISTS', KEYS[1]) == 1 then removed = redis.call('SDIFF', KEYS[1], KEYS[3]) end
local entry = cjson.decode(ARGV[5])
if #removed > 0 and ARGV[4] ~= '1' then
  redis.call('DEL', KEYS[3])
  entry.event = 'refused-removals'
  entry.removedCount = #removed
  redis.call('RPUSH', KEYS[5], cjson.encode(entry))
  return {'removals', tostring(#removed), unpack(removed, 1, math.min(#removed, 5))}
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('RENAME', KEYS[3], KEYS[1]) else redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
for k, v in pairs(cjson.decode(ARGV[3])) do redis.call('HSET', KEYS[2], k, v) end
if #removed > 0 then entry.removed = removed end
redis.call('RPUSH', KEYS[5], cjson.encode(entry))
redis.call('LTRIM', KEYS[5], -${HISTORY_KEPT}, -1)
local out = {'loaded', tostring(#removed)}
for _, r in ipairs(removed) do out[#out + 1] = r end
return out
`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

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

  constructor(
    private readonly redis: RedisClient,
    keys: StoreKeys,
  ) {
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
