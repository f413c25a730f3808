/**
 * Redis persistence of requests: the sealed request, its state, votes and append-only history.
 * The record is the source of truth for execution, not BullMQ's job state (DESIGN invariant 3).
 */

import { mustConfirmLookalike } from '../domain/address-book.js';
import { type ApprovalShape, executionId, sealHash, type ViewState } from '../domain/approval.js';
import { callDestination } from '../domain/destination-key.js';
import type { OpenCapHolder, OpenCaps } from '../domain/open-caps.js';
import { DEFAULT_REPEAT_WINDOW_MS } from '../domain/repeats.js';
import {
  type ExecutionRecord,
  formatRequestId,
  type HistoryEntry,
  type RequestKind,
  type RequestOutcome,
  type RequestRecord,
  type SealedRequest,
  type ServiceCall,
} from '../domain/request.js';
import type { PasskeyProof } from '../domain/step-up.js';
import type { VelocityRule, VelocitySubject } from '../domain/velocity.js';
import { StateConflictError } from '../errors.js';
import { AddressBook } from './address-book.js';
import { BatchStore } from './batches.js';
import { ExecutionStore } from './executions.js';
import { luaScript } from './lua-scripts.js';
import { countOpenByRequester, type SweepResult, sweepOldRecords } from './migration-sweep.js';
import { PaidBefore } from './paid-before.js';
import { RecentPayments } from './recent-payments.js';
import { recordOf, shapeOf } from './record-view.js';
import type { RedisClient } from './redis.js';
import { readReplies } from './redis-errors.js';
import { evalScript } from './run-script.js';
import { ScreeningStore } from './screening.js';
import { encodeSealed, maskedFields, readSealed, SEALED_FIELD } from './sealed-field.js';
import { type ChangeListener, StoreKeys } from './store-keys.js';
import { createField, ruleArgs, subjectField, subjectOfField } from './velocity-lua.js';

const ALLOCATE = luaScript('allocate');
const CREATE = luaScript('create');
const VOTE = luaScript('vote');
const DECIDE = luaScript('decide');

export type VoteOutcome =
  | 'approved'
  | 'voted'
  | 'duplicate'
  | 'self'
  | 'not_pending'
  | 'expired'
  | 'missing'
  // Refused while frozen; not counted because quorum would break a velocity limit.
  | 'frozen'
  | 'over_limit'
  // The record has no velocity subject (stored before it was kept): nothing counted; vote again with it.
  | 'needs_subject'
  // A step-up request and no verified passkey came with the vote.
  | 'step_up'
  // It carries a lookalike and the vote did not confirm the card's warnings.
  | 'unconfirmed';

/** What the VOTE script also checks (keys from store/controls.ts). */
export interface VoteControls {
  freezeKey: string;
  /** VELOCITY_LIMITS set: every rule; the script picks the request's own (store/lua/includes/velocity.lua). */
  velocity?: {
    /** `<prefix>:velocity:`, ControlStore.ledgerKey without the wallet id and code. */
    ledgerPrefix: string;
    retentionMs: number;
    rules: readonly Pick<VelocityRule, 'wallet' | 'code' | 'limit' | 'windowMs'>[];
    /**
     * For a record stored before its subject was (the vote answered `needs_subject`): the
     * subject read from it, `null` when it moves no money. Otherwise the record's own field.
     */
    subject?: VelocitySubject | null;
  };
}

export interface VoteResult {
  outcome: VoteOutcome;
  state: ViewState | undefined;
  votes: number;
  required: number;
  decidedBy: string | undefined;
  decidedAt: number | undefined;
  expiresAt: number;
  /**
   * over_limit: index of the broken rule in VoteControls' rules, the minor units
   * already used in it and the request's subject (from the record: the click read nothing).
   */
  limitIndex?: number;
  used?: bigint;
  subject?: VelocitySubject | undefined;
}

export type { ChangeListener, StateChange } from './store-keys.js';

import type { ExecutionStart, ExecutionTransition, TransitionResult } from './executions.js';

export type { ExecutionStart, ExecutionTransition, TransitionResult };

export const FIRST_ID = 1000;
/** Executions read per pipelined round trip when counting what an entry's removal stops. */
const UNSENT_PAGE = 5_000;
/** How many executions `get` returns with an approval that has several. */
const EXECUTION_PAGE = 20;
/** A form can be submitted for a few minutes at most; its claim outlives that comfortably. */
// An API Idempotency-Key's record lives 7 days and names its claim; the claim must
// outlive it, or a retry on day 2 after a crash between create and answer could create twice.
const SUBMISSION_CLAIM_MS = 8 * 86_400_000;

export interface CreateOptions {
  /** The modal's view id: one submitted form makes at most one request. */
  submission?: string;
  /** Redis time (ms) after which the create must not happen. */
  notAfterRedisMs?: number;
  /** BATCH_REPEAT_WINDOW: how long its payments stay in the recent-payments index. */
  repeatWindowMs?: number;
  /**
   * The open caps, checked in the create's own step (`apiKey` is the --max-open of the key in
   * `display.viaApi`). Every door passes them (app/post-request.ts); without them the request
   * is still counted, but not held back.
   */
  caps?: OpenCaps;
  /** What the approval is: one payment, or a batch of rows (stored as `shape`; default single). */
  shape?: ApprovalShape;
}

export type CreateOutcome =
  | { outcome: 'created'; id: string }
  /** This form already became request `id`. */
  | { outcome: 'taken'; id: string }
  /** Redis ran the script after the deadline: nothing was stored. */
  | { outcome: 'late' }
  /** `holder` already had `open` requests, its cap: nothing was stored. */
  | { outcome: 'too_many_open'; holder: OpenCapHolder; open: number };

export class RequestStore {
  readonly keys: StoreKeys;
  /** An approval's executions: start, finish, cancel, pages. */
  readonly executions: ExecutionStore;
  /** A batch's rows, pause, resume, stop and per-row velocity give-back. */
  readonly batches: BatchStore;
  /** Recent payments and batch files, for the card's warnings. */
  readonly recent: RecentPayments;
  /** The sanctions list: load, identity, membership. */
  readonly screening: ScreeningStore;
  private readonly paid: PaidBefore;
  /** The address book (store/address-book.ts), whose entries the create seals executions with. */
  readonly book: AddressBook;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly now: () => number = Date.now,
    private readonly onChange: ChangeListener = () => {},
  ) {
    this.keys = new StoreKeys(prefix);
    this.executions = new ExecutionStore(redis, this.keys, now, onChange);
    this.batches = new BatchStore(redis, this.keys, now);
    this.recent = new RecentPayments(redis, this.keys);
    this.paid = new PaidBefore(redis, this.keys);
    this.book = new AddressBook(redis, prefix);
    this.screening = new ScreeningStore(redis, this.keys);
  }

  /** Approvals in one view state, scored by when they entered it (kept by the Lua scripts). */
  stateKey = (state: ViewState) => this.keys.state(state);

  private key = (id: string) => this.keys.approval(id);
  private historyKey = (id: string) => this.keys.history(id);
  private submissionKey = (submission: string) => `${this.keys.prefix}:submission:${submission}`;
  private get openKey() {
    return this.keys.open;
  }
  private get recentKey() {
    return this.keys.recent;
  }

  async nextId(letter: 'R' | 'B' = 'R'): Promise<string> {
    return (await this.allocate(letter)).id;
  }

  /** Redis's own clock in ms: what every start compares runAt with (never a process clock). */
  async redisNow(): Promise<number> {
    const [sec, micro] = await this.redis.time();
    return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
  }

  /**
   * A new approval id and Redis's clock at that moment (the base of a create deadline). Batches
   * are `B-<n>` and series `S-<n>` from the same sequence, so no number names two approvals.
   */
  async allocate(letter: 'R' | 'B' | 'S' = 'R'): Promise<{ id: string; redisNowMs: number }> {
    const [n, redisNowMs] = (await evalScript(this.redis, ALLOCATE, 1, this.keys.seq)) as [number, number];
    const id = formatRequestId(FIRST_ID + n);
    return { id: letter === 'R' ? id : `${letter}-${id.slice(2)}`, redisNowMs };
  }

  /**
   * Stores a new pending approval in one atomic step: the form's claim (when given),
   * the record, its first history entry, the indexes and its executions, each `queued` with its
   * sealed call, sealHash and destination key (`calls` defaults to the one call of a
   * single request).
   * The sealed call is written once. With `notAfterRedisMs`, Redis refuses the create once its own
   * clock is past that moment, so a caller that stopped waiting can tell the person, truthfully,
   * that nothing was submitted.
   */
  async create(
    sealed: SealedRequest,
    options: CreateOptions = {},
    calls: readonly ServiceCall[] = [sealed.call],
  ): Promise<CreateOutcome> {
    const entry: HistoryEntry = {
      at: sealed.createdAt,
      event: 'requested',
      by: sealed.requester,
      detail: sealed.reason,
    };
    const claimKey = options.submission ? this.submissionKey(options.submission) : this.key(sealed.id);
    const execKeys = calls.map((_, i) => this.keys.execution(executionId(sealed.id, i + 1)));
    const index = this.recent.entries(sealed, calls, options.repeatWindowMs ?? DEFAULT_REPEAT_WINDOW_MS);
    const byRequester = this.keys.openBy(sealed.requester);
    const keyId = sealed.display.viaApi?.keyId;
    const { caps } = options;
    const [outcome, owner, open] = (await evalScript(
      this.redis,
      CREATE,
      8 + execKeys.length + index.keys.length,
      this.key(sealed.id),
      this.historyKey(sealed.id),
      this.recentKey,
      this.openKey,
      claimKey,
      this.stateKey('pending'),
      ...execKeys,
      ...index.keys,
      byRequester,
      keyId ? this.keys.keyOpen(keyId) : byRequester,
      encodeSealed(sealed),
      sealed.id,
      sealed.requester,
      String(sealed.requiredApprovals),
      String(sealed.expiresAt),
      JSON.stringify(entry),
      String(sealed.createdAt),
      options.notAfterRedisMs === undefined ? '' : String(Math.floor(options.notAfterRedisMs)),
      String(SUBMISSION_CLAIM_MS),
      sealed.call.kind,
      sealed.stepUp ? '1' : '0',
      String(calls.length),
      ...calls.flatMap((c) => [JSON.stringify(c), sealHash(c), callDestination(c)?.key ?? '']),
      ...index.args,
      mustConfirmLookalike(sealed.display) ? '1' : '',
      options.shape ?? 'single',
      createField(sealed),
      caps ? String(caps.requester) : '',
      caps?.apiKey === undefined ? '' : String(caps.apiKey),
    )) as [CreateOutcome['outcome'] | 'exists', string, string?];
    if (outcome === 'exists') throw new StateConflictError(`request ${sealed.id} already exists`);
    if (outcome === 'too_many_open') return { outcome, holder: owner as OpenCapHolder, open: Number(open) };
    if (outcome === 'taken') return { outcome, id: owner };
    if (outcome === 'late') return { outcome };
    this.onChange({ id: sealed.id, kind: sealed.call.kind, state: 'pending', seq: 1 });
    return { outcome, id: sealed.id };
  }

  /** The request a submitted form became, if it became one. */
  async submittedAs(submission: string): Promise<string | undefined> {
    return (await this.redis.get(this.submissionKey(submission))) ?? undefined;
  }

  /**
   * The approval as adapters see it (today's RequestRecord, `state` its view) with its
   * executions: all of them for a single request, the first page for many. Reads both formats.
   */
  async get(id: string): Promise<RequestRecord | undefined> {
    const [h, first] = (await readReplies(
      this.redis
        .pipeline()
        .hgetall(this.key(id))
        .hgetall(this.keys.execution(executionId(id, 1)))
        .exec(),
    )) as [Record<string, string>, Record<string, string>];
    const n = Number(h.n ?? '1');
    const more: ExecutionRecord[] = h.v && n > 1 ? await this.executions.page(id, 0, EXECUTION_PAGE, n) : [];
    return recordOf(id, h, first, more);
  }

  /**
   * The approval's stored shape, undefined when there is no such approval. One field read; a
   * record the scripts have not migrated yet is read as they will migrate it.
   */
  async shape(id: string): Promise<ApprovalShape | undefined> {
    const [shape, n, state] = await this.redis.hmget(this.key(id), 'shape', 'n', 'state');
    if (!state) return undefined;
    if (shape) return shapeOf({ shape }, undefined);
    const sealed = readSealed(await this.redis.hget(this.key(id), SEALED_FIELD));
    return shapeOf({ ...(n ? { n } : {}) }, sealed);
  }

  /**
   * `ids` less the series among them, in one round trip: a series sends nothing itself (its runs
   * are approvals of their own), and every series is written with its shape, so a record without
   * the field is never one.
   */
  async withoutSeries(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const reads = this.redis.pipeline();
    for (const id of ids) reads.hget(this.key(id), 'shape');
    const shapes = (await reads.exec()) ?? [];
    return ids.filter((_, i) => shapes[i]?.[1] !== 'series');
  }

  /** One execution (`R-1001.1`). */
  async execution(id: string): Promise<ExecutionRecord | undefined> {
    return this.executions.get(id);
  }

  async history(id: string): Promise<HistoryEntry[]> {
    const rows = await this.redis.lrange(this.historyKey(id), 0, -1);
    return rows.map((r) => JSON.parse(r) as HistoryEntry);
  }

  async appendHistory(id: string, entry: HistoryEntry): Promise<void> {
    await this.redis.rpush(this.historyKey(id), JSON.stringify(entry));
  }

  /** Notes beside the state that the card shows (why held, when escalated). */
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
   * One approval, atomically, with what the click needs to answer (no second read). * `passkey`, the verified assertion, rides in the vote's history entry; the script refuses a
   * step-up request's vote without it.
   */
  async castVote(
    id: string,
    user: string,
    controls?: VoteControls,
    passkey?: PasskeyProof,
    warningsChecked = false,
  ): Promise<VoteResult> {
    const at = this.now();
    // The approver confirmed the card's warnings; recorded with the vote itself.
    const detail = [passkey ? 'with passkey' : '', warningsChecked ? 'warnings checked' : '']
      .filter(Boolean)
      .join(', ');
    const entries: HistoryEntry[] = [
      {
        at,
        event: 'approval',
        by: user,
        ...(detail ? { detail } : {}),
        ...(passkey ? { passkey } : {}),
        ...(warningsChecked ? { warningsChecked: true } : {}),
      },
      { at, event: 'approved', by: user },
      { at, event: 'queued' },
    ];
    const keys = [
      this.key(id),
      this.historyKey(id),
      this.stateKey('pending'),
      this.stateKey('approved'),
      // Execution 1 (to migrate an old record), the ready index, the executing set.
      this.keys.execution(executionId(id, 1)),
      this.keys.ready,
      this.keys.executing,
      // A series joins the series index at its quorum; a payment's id goes on the wake list.
      this.keys.series,
      this.keys.wake,
    ];
    const args = [user, String(at), ...entries.map((e) => JSON.stringify(e)), id];
    // The freeze flag and, with VELOCITY_LIMITS set, every rule.
    if (controls) keys.push(controls.freezeKey);
    const l = controls?.velocity;
    if (l) {
      const subject = l.subject === undefined ? '' : subjectField(l.subject ?? undefined);
      args.push(l.ledgerPrefix, String(l.retentionMs), subject, ...ruleArgs(l.rules));
    }
    // The wallets' turns, after the freeze flag: a batch takes its place in its wallet's
    // approval order at quorum (the script reads the approval's shape).
    if (controls) keys.push(this.keys.turns);
    const [outcome, state, votes, required, decidedBy, decidedAt, expiresAt, kind, seq, limitIndex, used, subject] =
      (await evalScript(this.redis, VOTE, keys.length, ...keys, ...args)) as [
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
        string?,
      ];
    if (outcome === 'approved' && kind && seq) this.onChange({ id, kind, state: 'approved', seq });
    return {
      ...(outcome !== 'over_limit' || limitIndex === undefined || limitIndex === ''
        ? {}
        : { limitIndex: Number(limitIndex), used: BigInt(used ?? '0'), subject: subjectOfField(subject) }),
      outcome,
      state: state === '' ? undefined : (state as ViewState),
      votes: Number(votes),
      required: Number(required),
      decidedBy: decidedBy || undefined,
      decidedAt: decidedAt ? Number(decidedAt) : undefined,
      expiresAt: Number(expiresAt),
    };
  }

  /**
   * Today's request transitions on an approval with one execution, each the script of the
   * machine it belongs to: pending → denied | cancelled | expired decides the
   * approval; executing → unknown settles it. An approved execution is cancelled through
   * ExecutionStore.cancelQueued with its velocity give-back, never here.
   * Anything else is refused before touching Redis (StateConflictError).
   */
  async transition(
    id: string,
    from: readonly ViewState[],
    to: ViewState,
    entry: Omit<HistoryEntry, 'at'>,
    fields: Record<string, string> = {},
  ): Promise<TransitionResult> {
    const one = (f: ViewState) => from.length === 1 && from[0] === f;
    if (one('pending') && (to === 'denied' || to === 'cancelled' || to === 'expired'))
      return this.decide(id, to, entry, fields);
    if (one('executing') && to === 'unknown') {
      const outcome = fields.outcome ? (JSON.parse(fields.outcome) as RequestOutcome) : {};
      const r = await this.executions.finish(id, '', 'unknown', outcome, entry.detail);
      return { ok: r.ok, from: r.from === 'queued' ? 'approved' : r.from };
    }
    throw new StateConflictError(`transition ${from.join('|')} → ${to} is not allowed (domain/approval.ts)`);
  }

  /** A pending approval denied, cancelled or expired; its executions are cancelled with it. */
  async decide(
    id: string,
    to: 'denied' | 'cancelled' | 'expired',
    entry: Omit<HistoryEntry, 'at'>,
    fields: Record<string, string> = {},
  ): Promise<TransitionResult> {
    const history: HistoryEntry = { at: this.now(), ...entry };
    const [n, raw] = await this.redis.hmget(this.key(id), 'n', SEALED_FIELD);
    const sealed = readSealed(raw);
    // The final state also masks the stored personal data, atomically.
    const masked = maskedFields(sealed, history.at);
    const execs = Array.from({ length: Number(n ?? '1') }, (_, i) => this.keys.execution(executionId(id, i + 1)));
    const [ok, before, kind, seq] = (await evalScript(
      this.redis,
      DECIDE,
      15 + execs.length,
      this.key(id),
      this.historyKey(id),
      this.keys.execution(executionId(id, 1)),
      this.keys.ready,
      this.keys.executing,
      this.openKey,
      ...this.keys.views(),
      ...execs,
      to,
      JSON.stringify(history),
      JSON.stringify({ ...fields, ...masked?.approval }),
      String(history.at),
      id,
      masked?.first ?? '',
    )) as [number, string, RequestKind?, number?];
    if (ok === 1 && kind && seq) this.onChange({ id, kind, state: to, seq });
    return { ok: ok === 1, from: before === '' ? undefined : (before as ViewState) };
  }

  /**
   * Starts execution 1 of a single request (or the named execution): see ExecutionStore.start.
   * The freeze is always checked in the same script.
   */
  async startExecution(idOrExecution: string, worker: string, jobId = ''): Promise<ExecutionStart> {
    return this.executions.start(idOrExecution, worker, jobId);
  }

  async finishExecution(
    idOrExecution: string,
    token: string,
    to: 'succeeded' | 'failed' | 'unknown' | 'queued',
    outcome: RequestOutcome,
    detail?: string,
  ): Promise<ExecutionTransition> {
    return this.executions.finish(idOrExecution, token, to, outcome, detail);
  }

  /**
   * Migrates every record written before approvals had executions (idempotent, safe
   * with many workers: one script per record), unless a sweep already completed this record
   * format (store/migration-sweep.ts); then counts each open request for its requester's cap.
   */
  async migrate(pageSize = 500): Promise<SweepResult> {
    const swept = await sweepOldRecords(this.redis, this.keys, this.now, pageSize);
    await countOpenByRequester(this.redis, this.keys);
    return swept;
  }

  async openIds(): Promise<string[]> {
    return this.redis.smembers(this.openKey);
  }

  /**
   * Entry id → queued executions sealed with it (the CREATE script's `entry` field), over every
   * open approval, pending ones included. Only the fields it counts are read, in one pipelined
   * round trip for the approvals' execution counts and one per UNSENT_PAGE executions, never a
   * sealed request: a 1,000-row batch costs one field pair per row, not its record.
   */
  async unsentByEntry(): Promise<Map<string, number>> {
    const ids = await this.openIds();
    const counts = new Map<string, number>();
    if (ids.length === 0) return counts;
    const sizes = (await readReplies(
      ids.reduce((p, id) => p.hget(this.key(id), 'n'), this.redis.pipeline()).exec(),
    )) as (string | null)[];
    // A record without `n` predates batches: one execution. A series (n = 0) has none.
    const execs = ids.flatMap((id, i) =>
      Array.from({ length: Number(sizes[i] ?? '1') || 0 }, (_, k) => this.keys.execution(executionId(id, k + 1))),
    );
    for (let at = 0; at < execs.length; at += UNSENT_PAGE) {
      const page = execs.slice(at, at + UNSENT_PAGE);
      const fields = (await readReplies(
        page.reduce((p, key) => p.hmget(key, 'state', 'entry'), this.redis.pipeline()).exec(),
      )) as (string | null)[][];
      for (const [state, entry] of fields)
        if (state === 'queued' && entry) counts.set(entry, (counts.get(entry) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * Open approvals that are no longer pending (approved, running, paused…): what may still send
   * money. One round trip; the pending ones, however many, are never read.
   */
  async decidedOpenIds(): Promise<string[]> {
    const [open, pending] = await Promise.all([
      this.redis.smembers(this.openKey),
      this.redis.zrange(this.stateKey('pending'), '0', '-1'),
    ]);
    const waiting = new Set(pending);
    return open.filter((id) => !waiting.has(id));
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
  async idsInState(state: ViewState, limit = 20): Promise<string[]> {
    return this.redis.zrevrange(this.stateKey(state), 0, limit - 1);
  }

  /**
   * Approvals whose view changed in [since, until] (an execution of theirs started or ended then:
   * each start and end moves the view), newest first, at most `limit` per state.
   */
  async idsChangedBetween(states: readonly ViewState[], since: number, until: number, limit = 50): Promise<string[]> {
    const lists = await Promise.all(
      states.map((s) => this.redis.zrevrangebyscore(this.stateKey(s), until, since, 'LIMIT', 0, limit)),
    );
    return [...new Set(lists.flat())];
  }

  /** How many requests are in `state`, and since when the longest-waiting one has been (ms). */
  async stateCount(state: ViewState): Promise<{ count: number; oldestSince: number | undefined }> {
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

  /** Every destination key paid in `scope` (seeding the address book from what was paid). */
  paidKeys(scope: string): Promise<string[]> {
    return this.paid.members(scope);
  }

  /** Paid before, by destination key (store/paid-before.ts): `scope` a chain id, or beneficiaries. */
  async knownPayee(scope: string, destination: string): Promise<boolean> {
    return this.paid.known(scope, destination);
  }

  async addPayee(scope: string, destination: string): Promise<void> {
    await this.paid.add(scope, destination);
  }
}
