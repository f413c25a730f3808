/**
 * Recent payments by asset + destination + amount, and recent batch files by fingerprint (issue
 * 20 §4 warnings). One sorted set per digest (members: execution ids, scored by creation time)
 * and one per `fileFingerprint` (members: batch ids), written by the CREATE script in the same
 * step as the executions themselves, pruned to their window there and expiring with it. Every key
 * sits under the hash-tagged prefix, so a Redis Cluster keeps them in the approvals' slot.
 * Read at submission only (never on the approve path): one pipelined read, and a second only
 * when the first found something.
 *
 * Also the destinations requested in the last 90 days, paid or not (the lookalike check): one
 * sorted set per chain whose members are destination keys scored by their latest request, written
 * by the same CREATE step and trimmed there to RECENT_DESTINATIONS_MS, so it never outgrows the
 * distinct destinations of 90 days.
 */
import { RECENT_DESTINATIONS_MS } from '../domain/address-book.js';
import { EXECUTION_ID } from '../domain/approval.js';
import { callDestination, PAID_BENEFICIARIES } from '../domain/destination-key.js';
import { paymentDigest, type RepeatHit, repeatStateOf, SAME_FILE_WINDOW_MS } from '../domain/repeats.js';
import type { SealedRequest, ServiceCall } from '../domain/request.js';
import type { RedisClient } from './redis.js';
import { readReplies } from './redis-errors.js';
import type { StoreKeys } from './store-keys.js';

/** An earlier batch of the same file: its id, its approval state then, when it was requested. */
export interface SameFile {
  id: string;
  state: string;
  at: number;
}

/** Index entries the CREATE script writes: keys, then (member, retention ms) for each key. */
export interface IndexEntries {
  keys: string[];
  args: string[];
}

export class RecentPayments {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  paymentKey = (digest: string) => `${this.keys.prefix}:repeat:${digest}`;
  fileKey = (fingerprint: string) => `${this.keys.prefix}:batchfile:${fingerprint}`;
  destinationsKey = (chain: string) => `${this.keys.prefix}:recentdest:${chain}`;

  /** What a new approval adds to the indexes: each money execution, and a batch's file. */
  entries(sealed: SealedRequest, calls: readonly ServiceCall[], windowMs: number): IndexEntries {
    const out: IndexEntries = { keys: [], args: [] };
    calls.forEach((call, i) => {
      const digest = paymentDigest(call);
      if (!digest) return;
      out.keys.push(this.paymentKey(digest));
      out.args.push(`${sealed.id}.${i + 1}`, String(windowMs));
    });
    // Each distinct address once: a 1,000-row batch to 3 addresses writes 3 members.
    const seen = new Set<string>();
    for (const call of calls) {
      const d = callDestination(call);
      if (!d || d.scope === PAID_BENEFICIARIES || seen.has(`${d.scope} ${d.key}`)) continue;
      seen.add(`${d.scope} ${d.key}`);
      out.keys.push(this.destinationsKey(d.scope));
      out.args.push(d.key, String(RECENT_DESTINATIONS_MS));
    }
    const fingerprint = sealed.display.batch?.fileFingerprint;
    if (fingerprint) {
      out.keys.push(this.fileKey(fingerprint));
      out.args.push(sealed.id, String(SAME_FILE_WINDOW_MS));
    }
    return out;
  }

  /** The destination keys requested on `chain` since `since`, each with its latest request's time. */
  async destinations(chain: string, since: number): Promise<{ key: string; at: number }[]> {
    const flat = await this.redis.zrangebyscore(this.destinationsKey(chain), since, '+inf', 'WITHSCORES');
    return pairs(flat).map((p) => ({ key: p.member, at: p.score }));
  }

  /**
   * For each digest, the earlier payments requested since `since` that still count as repeats;
   * with a fingerprint, the batches of that file requested since `fileSince`.
   */
  async lookup(
    digests: readonly string[],
    since: number,
    file?: { fingerprint: string; since: number },
  ): Promise<{ hits: Map<string, RepeatHit[]>; sameFile: SameFile[] }> {
    const distinct = [...new Set(digests)];
    const first = this.redis.pipeline();
    for (const d of distinct) first.zrangebyscore(this.paymentKey(d), since, '+inf', 'WITHSCORES');
    if (file) first.zrangebyscore(this.fileKey(file.fingerprint), file.since, '+inf', 'WITHSCORES');
    const found = (await readReplies(first.exec())).map((v) => pairs(v as string[]));
    const files = file ? (found.pop() ?? []) : [];
    const executions = [...new Set(found.flat().map((p) => p.member))];
    if (executions.length === 0 && files.length === 0) return { hits: new Map(), sameFile: [] };
    const second = this.redis.pipeline();
    for (const e of executions) {
      second.hget(this.keys.execution(e), 'state');
      second.hget(this.keys.approval(EXECUTION_ID.exec(e)?.[1] ?? e), 'state');
    }
    for (const f of files) second.hmget(this.keys.approval(f.member), 'state', 'view');
    const answers = await readReplies(second.exec());
    const stateOf = new Map(
      executions.map((e, i) => [
        e,
        repeatStateOf(
          (answers[2 * i] as string | null) ?? undefined,
          (answers[2 * i + 1] as string | null) ?? undefined,
        ),
      ]),
    );
    const hits = new Map<string, RepeatHit[]>();
    distinct.forEach((d, i) => {
      const list: RepeatHit[] = [];
      for (const p of found[i] ?? []) {
        const state = stateOf.get(p.member);
        if (state) list.push({ of: p.member, state, at: p.score });
      }
      if (list.length > 0) hits.set(d, list);
    });
    const sameFile = files.map((f, i) => {
      const [state, view] = (answers[2 * executions.length + i] as (string | null)[] | undefined) ?? [];
      // A finished batch is named by how it ended (succeeded, failed, unknown, cancelled).
      return { id: f.member, state: (state === 'done' ? view : state) ?? 'gone', at: f.score };
    });
    return { hits, sameFile };
  }
}

function pairs(flat: readonly string[]): { member: string; score: number }[] {
  const out: { member: string; score: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ member: flat[i] ?? '', score: Number(flat[i + 1]) });
  return out;
}
