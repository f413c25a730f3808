/**
 * Redis persistence of requests: the frozen request, its state, votes and append-only history.
 * The record is the source of truth for execution, not BullMQ's job state (DESIGN invariant 3).
 */
import { randomUUID } from 'node:crypto';
import { redactFrozen } from '../domain/redact.js';
import {
  canMove,
  type FrozenRequest,
  formatRequestId,
  type HistoryEntry,
  isFinal,
  type RequestKind,
  type RequestOutcome,
  type RequestRecord,
  type RequestState,
  type Vote,
} from '../domain/request.js';
import type { PasskeyProof } from '../domain/step-up.js';
import { ALLOCATE, CREATE, TRANSITION, VOTE } from './lua.js';
import type { RedisClient } from './redis.js';

export type VoteOutcome =
  | 'approved'
  | 'voted'
  | 'duplicate'
  | 'self'
  | 'not_pending'
  | 'expired'
  | 'missing'
  // issue 13: refused while frozen; not counted because quorum would break a velocity limit.
  | 'frozen'
  | 'over_limit'
  // issue 22: a step-up request and no verified passkey came with the vote.
  | 'step_up';

/** Issue 13: what the VOTE script also checks (keys from store/controls.ts). */
export interface VoteControls {
  freezeKey: string;
  ledger?: {
    key: string;
    amountsKey: string;
    units: bigint;
    retentionMs: number;
    limits: readonly { limit: bigint; windowMs: number }[];
  };
}

export interface VoteResult {
  outcome: VoteOutcome;
  state: RequestState | undefined;
  votes: number;
  required: number;
  decidedBy: string | undefined;
  decidedAt: number | undefined;
  expiresAt: number;
  /** over_limit (issue 13): index of the broken limit and minor units already used in it. */
  limitIndex?: number;
  used?: bigint;
}

export type ExecutionStart =
  | { token: string; frozen: FrozenRequest; decidedBy: string | undefined }
  /** held: the hold flag (issue 13's freeze) was set, so nothing changed. */
  | { token: undefined; from: RequestState | undefined; held?: true };

/** A request entered `state`; `seq` is its history entry's position (1-based). */
export interface StateChange {
  id: string;
  kind: RequestKind;
  state: RequestState;
  seq: number;
}

/** Told after each state change the store made (metrics, audit webhook: issue 14). */
export type ChangeListener = (change: StateChange) => void;

export interface TransitionResult {
  ok: boolean;
  /** State before the attempt. */
  from: RequestState | undefined;
}

const FIRST_ID = 1000;
/** A form can be submitted for a few minutes at most; its claim outlives that comfortably. */
const SUBMISSION_CLAIM_MS = 86_400_000;

export interface CreateOptions {
  /** The modal's view id: one submitted form makes at most one request. */
  submission?: string;
  /** Redis time (ms) after which the create must not happen. */
  notAfterRedisMs?: number;
}

export type CreateOutcome =
  | { outcome: 'created'; id: string }
  /** This form already became request `id`. */
  | { outcome: 'taken'; id: string }
  /** Redis ran the script after the deadline: nothing was stored. */
  | { outcome: 'late' };

export class RequestStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
    private readonly onChange: ChangeListener = () => {},
  ) {}

  /** Requests in one state, scored by when they entered it (kept by the Lua scripts). */
  stateKey = (state: RequestState) => `${this.prefix}:req:state:${state}`;

  private key = (id: string) => `${this.prefix}:req:${id}`;
  private historyKey = (id: string) => `${this.prefix}:req:${id}:history`;
  private submissionKey = (submission: string) => `${this.prefix}:submission:${submission}`;
  private get openKey() {
    return `${this.prefix}:req:open`;
  }
  private get recentKey() {
    return `${this.prefix}:req:recent`;
  }

  async nextId(): Promise<string> {
    return (await this.allocate()).id;
  }

  /** A new request id and Redis's clock at that moment (the base of a create deadline). */
  async allocate(): Promise<{ id: string; redisNowMs: number }> {
    const [n, redisNowMs] = (await this.redis.eval(ALLOCATE, 1, `${this.prefix}:req:seq`)) as [number, number];
    return { id: formatRequestId(FIRST_ID + n), redisNowMs };
  }

  /**
   * Stores a new pending request in one atomic step (issue 9): the form's claim (when given),
   * the record, its first history entry and the indexes. `frozen` is written once. With
   * `notAfterRedisMs`, Redis refuses the create once its own clock is past that moment, so a
   * caller that stopped waiting can tell the person, truthfully, that nothing was submitted.
   */
  async create(frozen: FrozenRequest, options: CreateOptions = {}): Promise<CreateOutcome> {
    const entry: HistoryEntry = {
      at: frozen.createdAt,
      event: 'requested',
      by: frozen.requester,
      detail: frozen.reason,
    };
    const claimKey = options.submission ? this.submissionKey(options.submission) : this.key(frozen.id);
    const [outcome, owner] = (await this.redis.eval(
      CREATE,
      6,
      this.key(frozen.id),
      this.historyKey(frozen.id),
      this.recentKey,
      this.openKey,
      claimKey,
      this.stateKey('pending'),
      JSON.stringify(frozen),
      frozen.id,
      frozen.requester,
      String(frozen.requiredApprovals),
      String(frozen.expiresAt),
      JSON.stringify(entry),
      String(frozen.createdAt),
      options.notAfterRedisMs === undefined ? '' : String(Math.floor(options.notAfterRedisMs)),
      String(SUBMISSION_CLAIM_MS),
      frozen.call.kind,
      frozen.stepUp ? '1' : '0', // issue 22
    )) as [CreateOutcome['outcome'] | 'exists', string];
    if (outcome === 'exists') throw new Error(`request ${frozen.id} already exists`);
    if (outcome === 'taken') return { outcome, id: owner };
    if (outcome === 'late') return { outcome };
    this.onChange({ id: frozen.id, kind: frozen.call.kind, state: 'pending', seq: 1 });
    return { outcome, id: frozen.id };
  }

  /** The request a submitted form became, if it became one. */
  async submittedAs(submission: string): Promise<string | undefined> {
    return (await this.redis.get(this.submissionKey(submission))) ?? undefined;
  }

  async get(id: string): Promise<RequestRecord | undefined> {
    const h = await this.redis.hgetall(this.key(id));
    if (!h.frozen || !h.state) return undefined;
    const record: RequestRecord = {
      frozen: JSON.parse(h.frozen) as FrozenRequest,
      state: h.state as RequestState,
      votes: JSON.parse(h.votes ?? '[]') as Vote[],
    };
    if (h.decidedBy) record.decidedBy = h.decidedBy;
    if (h.decidedAt) record.decidedAt = Number(h.decidedAt);
    if (h.denyReason) record.denyReason = h.denyReason;
    if (h.outcome) record.outcome = JSON.parse(h.outcome) as RequestOutcome;
    if (h.card) record.card = JSON.parse(h.card) as { channel: string; ts: string };
    if (h.held) record.held = h.held;
    if (h.escalatedAt) record.escalatedAt = Number(h.escalatedAt);
    return record;
  }

  async history(id: string): Promise<HistoryEntry[]> {
    const rows = await this.redis.lrange(this.historyKey(id), 0, -1);
    return rows.map((r) => JSON.parse(r) as HistoryEntry);
  }

  async appendHistory(id: string, entry: HistoryEntry): Promise<void> {
    await this.redis.rpush(this.historyKey(id), JSON.stringify(entry));
  }

  /** Issue 13: notes beside the state that the card shows (why held, when escalated). */
  async setNotes(id: string, fields: Partial<Record<'held' | 'escalatedAt', string>>): Promise<void> {
    await this.redis.hset(this.key(id), fields);
  }

  async setCard(id: string, card: { channel: string; ts: string }): Promise<void> {
    await this.redis.hset(this.key(id), 'card', JSON.stringify(card));
  }

  async vote(id: string, user: string): Promise<VoteOutcome> {
    return (await this.castVote(id, user)).outcome;
  }

  /**
   * One approval, atomically, with what the click needs to answer (no second read). Issue 22:
   * `passkey`, the verified assertion, rides in the vote's history entry; the script refuses a
   * step-up request's vote without it.
   */
  async castVote(id: string, user: string, controls?: VoteControls, passkey?: PasskeyProof): Promise<VoteResult> {
    const at = this.now();
    const entries: HistoryEntry[] = [
      passkey
        ? { at, event: 'approval', by: user, detail: 'with passkey', passkey }
        : { at, event: 'approval', by: user },
      { at, event: 'approved', by: user },
      { at, event: 'queued' },
    ];
    const keys = [this.key(id), this.historyKey(id), this.stateKey('pending'), this.stateKey('approved')];
    const args = [user, String(at), ...entries.map((e) => JSON.stringify(e)), id];
    // issue 13: the freeze flag and, for money, the velocity ledger and limits.
    if (controls) keys.push(controls.freezeKey);
    const l = controls?.ledger;
    if (l) {
      keys.push(l.key, l.amountsKey);
      args.push(l.units.toString(), String(l.retentionMs));
      for (const r of l.limits) args.push(r.limit.toString(), String(r.windowMs));
    }
    const [outcome, state, votes, required, decidedBy, decidedAt, expiresAt, kind, seq, limitIndex, used] =
      (await this.redis.eval(VOTE, keys.length, ...keys, ...args)) as [
        VoteOutcome,
        string,
        string,
        string,
        string,
        string,
        string,
        RequestKind?,
        number?,
        string?,
        string?,
      ];
    if (outcome === 'approved' && kind && seq) this.onChange({ id, kind, state: 'approved', seq });
    return {
      ...(limitIndex === undefined ? {} : { limitIndex: Number(limitIndex), used: BigInt(used ?? '0') }),
      outcome,
      state: state === '' ? undefined : (state as RequestState),
      votes: Number(votes),
      required: Number(required),
      decidedBy: decidedBy || undefined,
      decidedAt: decidedAt ? Number(decidedAt) : undefined,
      expiresAt: Number(expiresAt),
    };
  }

  /**
   * Atomic compare-and-set: moves the request to `to` only if its state is one of `from`
   * (and, when given, the execution token matches).
   */
  async transition(
    id: string,
    from: readonly RequestState[],
    to: RequestState,
    entry: Omit<HistoryEntry, 'at'>,
    fields: Record<string, string> = {},
    execToken = '',
  ): Promise<TransitionResult> {
    const [ok, before] = await this.runTransition(id, from, to, entry, fields, execToken, false);
    return { ok: ok === 1, from: before === '' ? undefined : (before as RequestState) };
  }

  /** The masked frozen request to store with a final state; nothing when already masked. */
  private async redactedFields(id: string, at: number): Promise<Record<string, string>> {
    const raw = await this.redis.hget(this.key(id), 'frozen');
    if (!raw) return {};
    const frozen = JSON.parse(raw) as FrozenRequest;
    return frozen.redacted ? {} : { frozen: JSON.stringify(redactFrozen(frozen, at)) };
  }

  private async runTransition(
    id: string,
    from: readonly RequestState[],
    to: RequestState,
    entry: Omit<HistoryEntry, 'at'>,
    fields: Record<string, string>,
    execToken: string,
    returnFrozen: boolean,
    holdKey?: string,
  ): Promise<[number, string, string | undefined, string | undefined]> {
    // The domain's state machine is the rule; the script only makes it atomic.
    const illegal = from.find((f) => !canMove(f, to));
    if (illegal) throw new Error(`transition ${illegal} → ${to} is not allowed (domain/request.ts TRANSITIONS)`);
    const history: HistoryEntry = { at: this.now(), ...entry };
    // Issue 9 item 12: the final transition also masks the stored personal data, atomically.
    if (isFinal(to)) fields = { ...fields, ...(await this.redactedFields(id, history.at)) };
    const [ok, before, kind, seq, frozen, decidedBy] = (await this.redis.eval(
      TRANSITION,
      4 + from.length + (holdKey ? 1 : 0),
      this.key(id),
      this.historyKey(id),
      this.openKey,
      this.stateKey(to),
      ...from.map(this.stateKey),
      ...(holdKey ? [holdKey] : []),
      from.join(','),
      to,
      JSON.stringify(history),
      JSON.stringify(fields),
      execToken,
      id,
      isFinal(to) ? '1' : '0',
      returnFrozen ? '1' : '0',
      String(history.at),
      holdKey ? String(5 + from.length) : '',
    )) as [number, string, RequestKind?, number?, string?, string?];
    if (ok === 1 && kind && seq) this.onChange({ id, kind, state: to, seq });
    return [ok, before, frozen, decidedBy];
  }

  /**
   * approved → executing in one round trip; returns the token that alone may finish this
   * execution, with the frozen request to run (DESIGN invariant 2: read in the same step).
   */
  async startExecution(id: string, worker: string, holdKey?: string): Promise<ExecutionStart> {
    const token = randomUUID();
    const [ok, before, frozen, decidedBy] = await this.runTransition(
      id,
      ['approved'],
      'executing',
      { event: 'executing', by: worker },
      { execToken: token },
      '',
      true,
      holdKey,
    );
    if (ok === 1 && frozen) {
      return { token, frozen: JSON.parse(frozen) as FrozenRequest, decidedBy: decidedBy || undefined };
    }
    const from = before === '' ? undefined : (before as RequestState);
    return ok === -1 ? { token: undefined, from, held: true } : { token: undefined, from };
  }

  async finishExecution(
    id: string,
    token: string,
    to: 'succeeded' | 'failed' | 'unknown' | 'approved',
    outcome: RequestOutcome,
    detail?: string,
  ): Promise<TransitionResult> {
    // A real answer may replace an "unknown" set by the reconciler while this call was out.
    const from: RequestState[] = to === 'unknown' || to === 'approved' ? ['executing'] : ['executing', 'unknown'];
    const entry = detail === undefined ? { event: to } : { event: to, detail };
    return this.transition(id, from, to, entry, { outcome: JSON.stringify(outcome) }, token);
  }

  async openIds(): Promise<string[]> {
    return this.redis.smembers(this.openKey);
  }

  /** Ids of requests created at or after `since` (ms), oldest first. */
  async idsCreatedSince(since: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.recentKey, since, '+inf');
  }

  /** How many history entries each request has (its latest state change's position). */
  async historyLengths(ids: readonly string[]): Promise<number[]> {
    return Promise.all(ids.map((id) => this.redis.llen(this.historyKey(id))));
  }

  async recentIds(limit = 20): Promise<string[]> {
    return this.redis.zrevrange(this.recentKey, 0, limit - 1);
  }

  /** Newest first by when they entered `state`: the index, not a scan of recent requests. */
  async idsInState(state: RequestState, limit = 20): Promise<string[]> {
    return this.redis.zrevrange(this.stateKey(state), 0, limit - 1);
  }

  /** How many requests are in `state`, and since when the longest-waiting one has been (ms). */
  async stateCount(state: RequestState): Promise<{ count: number; oldestSince: number | undefined }> {
    const key = this.stateKey(state);
    const [count, [first]] = await Promise.all([this.redis.zcard(key), this.redis.zrange(key, '0', '0')]);
    const score = first === undefined ? null : await this.redis.zscore(key, first);
    return { count, oldestSince: score === null ? undefined : Number(score) };
  }

  /** Ids created in [since, until] (ms), oldest first, `pageSize` at a time: for exports. */
  async *idsCreatedBetween(since: number, until: number, pageSize = 500): AsyncGenerator<string> {
    let offset = 0;
    for (;;) {
      const page = await this.redis.zrangebyscore(
        this.recentKey,
        since,
        until,
        'LIMIT',
        String(offset),
        String(pageSize),
      );
      yield* page;
      if (page.length < pageSize) return;
      offset += page.length;
    }
  }

  /** Marks a one-off notification as sent; false when it was sent before (no double post). */
  async markPosted(id: string, what: string, ts: string): Promise<boolean> {
    return (await this.redis.hsetnx(this.key(id), `posted:${what}`, ts)) === 1;
  }

  /** A short exclusive claim (SET NX PX): expires by itself if its holder dies. */
  async claim(id: string, what: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.key(id)}:claim:${what}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async release(id: string, what: string): Promise<void> {
    await this.redis.del(`${this.key(id)}:claim:${what}`);
  }

  /** When a one-off notification was marked (markPosted's value), if it was. */
  async postedAt(id: string, what: string): Promise<string | undefined> {
    return (await this.redis.hget(this.key(id), `posted:${what}`)) ?? undefined;
  }

  /** Clears a mark whose notification provably did not happen, so it can be made again. */
  async clearPosted(id: string, what: string): Promise<void> {
    await this.redis.hdel(this.key(id), `posted:${what}`);
  }

  async wasPosted(id: string, what: string): Promise<boolean> {
    return (await this.redis.hexists(this.key(id), `posted:${what}`)) === 1;
  }

  async knownPayee(chain: string, receiver: string): Promise<boolean> {
    return (await this.redis.sismember(`${this.prefix}:payees`, `${chain}:${receiver.toLowerCase()}`)) === 1;
  }

  async addPayee(chain: string, receiver: string): Promise<void> {
    await this.redis.sadd(`${this.prefix}:payees`, `${chain}:${receiver.toLowerCase()}`);
  }
}
