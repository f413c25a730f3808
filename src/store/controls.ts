/**
 * Velocity and freeze state in Redis: the velocity ledger (one sorted set per wallet id and asset code,
 * request id scored +inf until it starts, then by its start time, beside a hash of
 * minor units) and the freeze flag. Every
 * key derives from the one prefix, so a hash-tagged prefix keeps them in one cluster slot.
 */

import {
  type FreezeState,
  type UnfreezeChoice,
  type UnfreezeProposal,
  unfreezeChoiceOf,
} from '../domain/freeze-state.js';
import type { VelocityRule, VelocitySubject, VelocityUsage } from '../domain/velocity.js';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import type { VoteControls } from './requests.js';
import { evalScript } from './run-script.js';
import { StoreKeys } from './store-keys.js';

export type { FreezeState, UnfreezeChoice, UnfreezeProposal };

/** Ledger entries are kept at least this long, so a rule added later still sees a month back. */
const MIN_RETENTION_MS = 31 * 86_400_000;

/** The freeze reason written over its placeholder, atomically. */
const ADD_REASON = luaScript('freeze-add-reason');

/** What each velocity window holds, from the smaller side of its edge. */
const USAGE = luaScript('velocity-usage');

export class ControlStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  get freezeKey(): string {
    return `${this.prefix}:freeze`;
  }
  /** The live series a freeze held (each had a run due while frozen: store/lua/series-run.lua). */
  async heldSeries(): Promise<string[]> {
    return this.redis.smembers(new StoreKeys(this.prefix).seriesHeld);
  }
  /** After the unfreeze woke them: a second lift finds none. */
  async woken(seriesIds: readonly string[]): Promise<void> {
    if (seriesIds.length > 0) await this.redis.srem(new StoreKeys(this.prefix).seriesHeld, ...seriesIds);
  }
  /** Where every ledger key starts (the vote script builds them from it, store/lua/includes/velocity.lua). */
  get ledgerPrefix(): string {
    return new StoreKeys(this.prefix).ledgerPrefix;
  }
  ledgerKey = (s: Pick<VelocitySubject, 'walletId' | 'code'>) => `${this.ledgerPrefix}${s.walletId}:${s.code}`;
  amountsKey = (s: Pick<VelocitySubject, 'walletId' | 'code'>) => `${this.ledgerKey(s)}:amounts`;

  /**
   * What the VOTE script needs to check the freeze and, with `rules` (VELOCITY_LIMITS), the
   * limits: every rule, so the click reads nothing first. `subject` only for a record stored
   * before its subject was (the vote answered `needs_subject`). Ledger entries are kept for the
   * longest configured window, at least a month.
   */
  voteControls(rules: readonly VelocityRule[], subject?: VelocitySubject | null): VoteControls {
    if (rules.length === 0) return { freezeKey: this.freezeKey };
    const retentionMs = Math.max(MIN_RETENTION_MS, ...rules.map((r) => r.windowMs));
    return {
      freezeKey: this.freezeKey,
      velocity: { ledgerPrefix: this.ledgerPrefix, retentionMs, rules, ...(subject === undefined ? {} : { subject }) },
    };
  }

  /**
   * Used minor units per rule at `now` (a read for people; the vote re-checks atomically). Read
   * from the smaller side of each window's edge and the ledger's running total, as the vote does
   * (store/lua/velocity-usage.lua), so a busy wallet's ledger is not read whole; summed here in
   * exact integers.
   */
  async usage(subject: VelocitySubject, rules: readonly VelocityRule[], now: number): Promise<VelocityUsage[]> {
    if (rules.length === 0) return [];
    const windows = rules.map((r) => String(r.windowMs));
    const replies = (await evalScript(
      this.redis,
      USAGE,
      2,
      this.ledgerKey(subject),
      this.amountsKey(subject),
      String(now),
      ...windows,
    )) as string[][];
    return rules.map((rule, i) => {
      const [side, ...rest] = replies[i] ?? ['in'];
      const sum = (units: readonly string[]) => units.reduce((s, u) => s + BigInt(u), 0n);
      const used = side === 'total' ? BigInt(rest[0] ?? '0') - sum(rest.slice(1)) : sum(rest);
      return { rule, used };
    });
  }

  async freeze(): Promise<FreezeState | undefined> {
    const raw = await this.redis.get(this.freezeKey);
    return raw ? (JSON.parse(raw) as FreezeState) : undefined;
  }

  /**
   * Gives a reasonless freeze its reason, atomically and only while the freeze
   * still says `placeholder` (a reason someone gave is never replaced).
   */
  async addFreezeReason(reason: string, placeholder: string): Promise<{ added: boolean; state?: FreezeState }> {
    const raw = (await evalScript(this.redis, ADD_REASON, 1, this.freezeKey, reason, placeholder)) as
      | [number, string]
      | null;
    if (!raw) return { added: false };
    return { added: raw[0] === 1, state: JSON.parse(raw[1]) as FreezeState };
  }

  /** Sets the freeze unless one is on; returns the freeze in force afterwards and whether it is new. */
  async setFreeze(state: FreezeState): Promise<{ created: boolean; state: FreezeState }> {
    const ok = await this.redis.set(this.freezeKey, JSON.stringify(state), 'NX');
    if (ok === 'OK') return { created: true, state };
    return { created: false, state: (await this.freeze()) ?? state };
  }
}

export type UnfreezeVote =
  | { outcome: 'not_frozen' | 'stale' }
  | { outcome: 'voted'; count: number }
  | { outcome: 'decided'; choice: UnfreezeChoice; now: boolean };

/** One unfreeze vote; enough votes for one choice decide it. */
const UNFREEZE_VOTE = luaScript('unfreeze-vote');

/** A cancel lifts only once nothing is left approved. */
const LIFT = luaScript('unfreeze-lift');

export class UnfreezeStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly controls: ControlStore,
  ) {}

  private get key(): string {
    return `${this.prefix}:unfreeze`;
  }

  async proposal(): Promise<UnfreezeProposal | undefined> {
    const h = await this.redis.hgetall(this.key);
    if (!h.id || !h.by) return undefined;
    const votes: Record<string, UnfreezeChoice> = {};
    for (const [k, v] of Object.entries(h)) {
      const choice = k.startsWith('vote:') ? unfreezeChoiceOf(v) : undefined;
      if (choice) votes[k.slice(5)] = choice;
    }
    const decided = unfreezeChoiceOf(h.decided);
    return {
      id: h.id,
      by: h.by,
      at: Number(h.at),
      votes,
      ...(decided ? { decided } : {}),
      ...(h.card ? { card: JSON.parse(h.card) as { channel: string; ts: string } } : {}),
    };
  }

  /**
   * A proposal voted on before the card said "unfreeze" stored `release` for that choice; the vote
   * script counts equal words, so those votes are rewritten first (same meaning, idempotent), or
   * an old and a new vote for the same choice would not add up.
   */
  private async upgradeOldVotes(): Promise<void> {
    const h = await this.redis.hgetall(this.key);
    const old = Object.entries(h).filter(([k, v]) => (k.startsWith('vote:') || k === 'decided') && v === 'release');
    if (old.length > 0) await this.redis.hset(this.key, Object.fromEntries(old.map(([k]) => [k, 'unfreeze'])));
  }

  /** Opens a proposal unless one is waiting; returns the one in force and whether it is new. */
  async open(p: { id: string; by: string; at: number }): Promise<{ created: boolean; proposal: UnfreezeProposal }> {
    const created = (await this.redis.hsetnx(this.key, 'id', p.id)) === 1;
    if (created) await this.redis.hset(this.key, { by: p.by, at: String(p.at) });
    const proposal = await this.proposal();
    return { created, proposal: proposal ?? { ...p, votes: {} } };
  }

  async setCard(card: { channel: string; ts: string }): Promise<void> {
    await this.redis.hset(this.key, 'card', JSON.stringify(card));
  }

  async vote(id: string, user: string, choice: UnfreezeChoice, required: number): Promise<UnfreezeVote> {
    await this.upgradeOldVotes();
    const [outcome, a, b] = (await evalScript(
      this.redis,
      UNFREEZE_VOTE,
      2,
      this.key,
      this.controls.freezeKey,
      id,
      user,
      choice,
      String(required),
    )) as [string, string?, string?];
    if (outcome === 'voted') return { outcome, count: Number(a) };
    if (outcome === 'decided') return { outcome, choice: unfreezeChoiceOf(a) ?? 'unfreeze', now: b === '1' };
    return { outcome: outcome === 'stale' ? 'stale' : 'not_frozen' };
  }

  async lift(choice: UnfreezeChoice, approvedIndexKey: string): Promise<'lifted' | 'retry'> {
    const r = await evalScript(this.redis, LIFT, 3, this.controls.freezeKey, this.key, approvedIndexKey, choice);
    return r === 'lifted' ? 'lifted' : 'retry';
  }
}
