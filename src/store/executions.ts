/**
 * Executions in Redis: each its own hash with its own compare-and-set, token and
 * outcome; the approval's counts, state and view move in the same script (store/lua/start.lua,
 * finish.lua, cancel-queued.lua).
 * The record is the source of truth for execution, not BullMQ's job state (DESIGN invariant 3).
 */

import { randomUUID } from 'node:crypto';
import {
  type ApprovalShape,
  type ApprovalState,
  canMoveExecution,
  type ExecutionState,
  executionId,
  type ViewState,
} from '../domain/approval.js';
import type { ConfirmRefusal, NotPaidProposal } from '../domain/not-paid.js';
import type { BalanceReading } from '../domain/outcome-evidence.js';
import type { Rate } from '../domain/rate.js';
import type { ExecutionRecord, HistoryEntry, RequestKind, RequestOutcome, SealedRequest } from '../domain/request.js';
import type { ScreeningCode } from '../domain/rules/screening.js';
import { StateConflictError } from '../errors.js';
import { luaScript } from './lua-scripts.js';
import { executionOf, sealedCallOf } from './record-view.js';
import type { RedisClient } from './redis.js';
import { readReplies } from './redis-errors.js';
import { evalScript } from './run-script.js';
import { cancelQueuedKeys, finishKeys, proposeKeys, startKeys, windowCancelKeys } from './script-keys.js';
import { decodeSealed, maskedFields, readSealed, SEALED_FIELD } from './sealed-field.js';
import type { ChangeListener, StoreKeys } from './store-keys.js';
import { createField } from './velocity-lua.js';

const START = luaScript('start');
const FINISH = luaScript('finish');
const CANCEL_QUEUED = luaScript('cancel-queued');
const PROPOSE = luaScript('propose');
const WINDOW_CANCEL = luaScript('window-cancel');

export type ExecutionStart =
  | {
      token: string;
      executionId: string;
      /** The approval as sealed, carrying this execution's call. */
      sealed: SealedRequest;
      /** The approval as stored (its own call): what a final move masks (no read before it). */
      approval: SealedRequest;
      /** This start moved the approval approved → running (a batch's card changes). */
      began: boolean;
      /** The approval's stored shape, read by the same script. */
      shape: ApprovalShape;
      sealHash: string;
      decidedBy: string | undefined;
      tries: number;
    }
  /**
   * Nothing changed: `from` is the execution's state (undefined: missing); `held` the freeze;
   * `approval` the approval's state when it may not run (pending, paused…); `job` what started it.
   */
  | {
      token: undefined;
      from: ExecutionState | undefined;
      held?: true;
      approval?: StartRefusal;
      job?: string;
      /** 'cooling': ms until its address-book entry is usable; 'not-yet': until the approval's runAt; 'rate': until BATCH_RATE admits the row (Redis time). */
      waitMs?: number;
      /** The start script cancelled it in its own step (it may never run): nothing sent. */
      cancelled?: StartCancel;
    };

/**
 * Why the start script cancelled an execution it may never run (store/lua/includes/start-cancel.lua):
 * screening refused its destination (domain/rules/screening.ts), or its address-book entry or new
 * beneficiary no longer lets it start (domain/address-book.ts entryStartRule, beneficiaryStartRule;
 * `entry_cooling`: a batch row still cooling, which never holds its batch).
 */
export type StartCancelCode =
  | ScreeningCode
  | 'entry_removed'
  | 'wallet_not_in_entry'
  | 'entry_cooling_over'
  | 'entry_cooling';

export interface StartCancel {
  why: string;
  code: StartCancelCode;
  /** The approval's shape (which notice follows). */
  shape: ApprovalShape;
}

/** SCREENING and SCREENING_MAX_AGE, as the start script applies them. */
export interface StartScreening {
  mode: 'off' | 'on' | 'required';
  maxAgeMs: number;
}

/** What a start is held to beyond the records: the settings every start script reads. */
export interface StartSettings {
  /** BATCH_HOLD_LIMIT (a batch's rows only); undefined: none. */
  holdLimitMs?: number | undefined;
  screening?: StartScreening | undefined;
  /** BATCH_RATE (a batch's rows only, all together across processes); undefined: off. */
  batchRate?: Rate | undefined;
}

/**
 * Why a queued execution may not start: its approval's state, or for a batch's row
 * 'waiting' (another row first), 'too-old' (BATCH_HOLD_LIMIT), 'turn' (another batch holds the
 * wallet's turn), 'funding' (the funding check must run first); 'not-yet' (before the approval's
 * runAt: a cancel window or a set time); 'rate' (a batch's row over BATCH_RATE, its slot in waitMs).
 */
export type StartRefusal = ApprovalState | 'waiting' | 'too-old' | 'turn' | 'funding' | 'cooling' | 'not-yet' | 'rate';

export interface TransitionResult {
  ok: boolean;
  /** State before the attempt. */
  from: ViewState | undefined;
}

export interface ExecutionTransition {
  ok: boolean;
  /** The execution's state before the attempt. */
  from: ExecutionState | undefined;
  /** After a move: the approval's state before and after it (a batch's card changes). */
  approval?: { before: ApprovalState | undefined; after: ApprovalState | undefined };
  /** After a move: the approval's stored shape, read by the same script. */
  shape?: ApprovalShape;
  /** After a move with `next`: that execution's state and tries, read in the same script. */
  next?: { id: string; state: ExecutionState | undefined; tries: number };
  /** Nothing moved because a not-paid confirmation did not hold (store/lua/includes/confirm-check.lua). */
  refused?: NotPaidRefusal;
}

export type { BalanceReading };

/** Why the finish script refused a person's not-paid: domain/not-paid.ts, checked again in the script. */
export type NotPaidRefusal = ConfirmRefusal | 'no-confirmation' | 'needs-passkey';

/** A not-paid proposal's record: {ok} or why not (its execution's state; the pending proposal). */
export type ProposeResult =
  | { ok: true }
  | { ok: false; from: ExecutionState | undefined; why: 'state' | 'requester' | 'pending'; pending?: NotPaidProposal };

export interface FinishOptions {
  /** States it may leave (default: executing, and unknown for a final move). */
  from?: ExecutionState[];
  /** Who made the move (a person's resolution); workers leave it out. */
  by?: string;
  /** The velocity ledger keys: a move to `failed` gives the amount back in the same script. */
  release?: { ledger: string; amounts: string };
  /** A batch row's own give-back, failure run and pause, all in its final move. */
  batch?: BatchFinish;
  /**
   * The approval as stored, read by the start script: masked for the final move without a
   * read before it. Absent: read here. It never changes until
   * the approval is final, and a final approval's fields are not set again.
   */
  approval?: SealedRequest;
  /** A batch row's next execution, whose state and tries the script returns. */
  next?: string;
  /** A person's not-paid: the proposal they saw; the script checks it before unknown → failed. */
  confirm?: { proposal: string; by: string; passkey?: boolean };
}

export interface BatchFinish {
  /**
   * The ledger's amounts hash and this row's units, given back once on `failed`; with the ledger
   * a row that ran is re-stamped under its own id with its start time.
   */
  giveBack?: { amounts: string; units: bigint; ledger?: string };
  /** BATCH_PAUSE_AFTER_FAILURES. */
  pauseAfter?: number;
  /** Going back to queued, the batch pauses with this reason (WAIT unacknowledged). */
  pauseWhy?: string;
}

/** START's reply (store/lua/start.lua's header). */
type StartReply = [
  number,
  string,
  string?,
  number?,
  string?,
  string?,
  string?,
  string?,
  number?,
  number?,
  string?,
  string?,
];
type CancelReply = [number, string, string, number, string, StartCancelCode, ViewState, number, string];

/**
 * The subject the cancel scripts fall back on, from the sealed request already read for the mask:
 * used only for a record stored before the approval's `velocity` field was, whose vote reserved
 * the subject the app passed without storing it (store/lua/vote.lua needs_subject). The scripts
 * prefer the stored field (store/lua/includes/give-back.lua).
 */
const subjectOf = (sealed: SealedRequest | undefined): string => (sealed ? createField(sealed) : '');
const id1 = (id: string) => (id.includes('.') ? id : executionId(id, 1));
const approvalOf = (execId: string) => execId.slice(0, execId.lastIndexOf('.'));

export class ExecutionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly now: () => number,
    private readonly onChange: ChangeListener,
  ) {}

  /**
   * queued → executing in one round trip, checked in the same script: the execution is queued,
   * its approval approved or running, Rampart not frozen. Returns the token that alone may
   * finish it, with the sealed call to run (DESIGN invariant 2: read in the same step).
   */
  async start(
    idOrExecution: string,
    worker: string,
    jobId = '',
    settings: StartSettings = {},
  ): Promise<ExecutionStart> {
    const { holdLimitMs, screening = { mode: 'on', maxAgeMs: 7 * 86_400_000 }, batchRate } = settings;
    const execId = id1(idOrExecution);
    const approvalId = approvalOf(execId);
    const token = randomUUID();
    const at = this.now();
    // The script names the execution in the entry (a batch's rows, not a single's execution 1).
    const entry: HistoryEntry = { at, event: 'executing', by: worker };
    // A batch's row k waits for row k-1 (checked in the script).
    const keys = startKeys(this.keys, approvalId, execId);
    const run = (
      masked: { approval: string; first: string; subject: string } = { approval: '', first: '', subject: '' },
    ) =>
      evalScript(
        this.redis,
        START,
        keys.length,
        ...keys,
        execId,
        approvalId,
        token,
        jobId,
        JSON.stringify(entry),
        String(at),
        holdLimitMs === undefined ? '' : String(holdLimitMs),
        screening.mode,
        String(screening.maxAgeMs),
        this.keys.ledgerPrefix,
        batchRate ? String(batchRate.intervalMs) : '',
        batchRate ? String(batchRate.burst) : '',
        masked.approval,
        masked.first,
        masked.subject,
      ) as Promise<StartReply>;
    let r = await run();
    // A cancel is a final move: the script asks for the masked copy (SHA-256 is not in Redis's
    // Lua) and decides everything again with it. Only this rare path pays a second round trip.
    if (r[0] === 3) {
      const sealed = readSealed(String(r[2] ?? ''));
      const m = maskedFields(sealed, at);
      r = await run({
        approval: m ? JSON.stringify(m.approval) : '{}',
        first: m?.first ?? '',
        subject: subjectOf(sealed),
      });
    }
    const [ok, from, kind, seq, call, seal, stored, decidedBy, tries, changed, before, shape] = r;
    if (ok === 2) {
      // {2, 'cancelled', kind, seq, why, code, view, viewChanged, shape} (START).
      const [, , , , why, code, view, viewChanged, cancelShape] = r as unknown as CancelReply;
      if (viewChanged === 1 && kind && seq)
        this.onChange({ id: approvalId, kind: kind as RequestKind, state: view, seq });
      return {
        token: undefined,
        from: 'queued',
        cancelled: {
          why,
          code,
          shape: cancelShape === 'batch' ? 'batch' : 'single',
        },
      };
    }
    if (ok === -1) return { token: undefined, from: 'queued', held: true };
    if (ok !== 1 || stored === undefined) {
      const state = from === '' ? undefined : (from as ExecutionState);
      if (from === 'queued' && kind === '' && String(r[3]) === 'not-yet')
        return { token: undefined, from: state, approval: 'not-yet', waitMs: Math.max(1, Number(r[4] ?? '1')) };
      if (from === 'queued' && kind === '' && String(r[3]) === 'rate')
        return { token: undefined, from: state, approval: 'rate', waitMs: Math.max(1, Number(r[4] ?? '1')) };
      if (from === 'queued' && kind === '' && String(r[3]) === 'cooling')
        return { token: undefined, from: state, approval: 'cooling', waitMs: Number(r[4]) };
      if (from === 'queued' && kind === '') return { token: undefined, from: state, approval: r[3] as never };
      return { token: undefined, from: state, ...(kind ? { job: kind } : {}) };
    }
    if (changed === 1 && kind && seq)
      this.onChange({ id: approvalId, kind: kind as RequestKind, state: 'executing', seq });
    const approval = decodeSealed(stored);
    const sealed = { ...approval, call: sealedCallOf(call ?? '', approval) };
    return {
      token,
      executionId: execId,
      sealed,
      approval,
      began: before === 'approved',
      shape: shape === 'batch' ? 'batch' : 'single',
      sealHash: seal || approval.hash,
      decidedBy: decidedBy || undefined,
      tries: Number(tries ?? 1),
    };
  }

  /**
   * executing → final (with the token; none for the reconciler's `unknown`), executing → queued
   * when provably never sent, unknown → final for a late answer. The approval is done, with its
   * counts, in the same script as its last execution's final move.
   */
  async finish(
    idOrExecution: string,
    token: string,
    to: ExecutionState,
    outcome: RequestOutcome,
    detail?: string,
    how: FinishOptions = {},
  ): Promise<ExecutionTransition> {
    const execId = id1(idOrExecution);
    const from: ExecutionState[] =
      how.from ?? (to === 'unknown' || to === 'queued' ? ['executing'] : ['executing', 'unknown']);
    const illegal = from.find((f) => !canMoveExecution(f, to));
    if (illegal) throw new StateConflictError(`execution ${illegal} → ${to} is not allowed (domain/approval.ts)`);
    const approvalId = approvalOf(execId);
    const at = this.now();
    const entry: HistoryEntry = { at, event: to === 'queued' ? 'approved' : to };
    if (how.by !== undefined) entry.by = how.by;
    if (detail !== undefined) entry.detail = detail;
    const execFields: Record<string, string> = { outcome: JSON.stringify(outcome) };
    let approvalFields = '';
    let maskedCall = '';
    if (to !== 'queued') {
      // The final move also masks the stored personal data, atomically.
      const sealed = how.approval ?? readSealed(await this.redis.hget(this.keys.approval(approvalId), SEALED_FIELD));
      const m = maskedFields(sealed, at);
      if (m) {
        approvalFields = JSON.stringify(m.approval);
        // The script stores it on a single request's execution 1 only.
        maskedCall = m.call;
      }
    }
    const b = how.batch;
    const batchOptions = b
      ? JSON.stringify({
          ...(b.giveBack ? { units: b.giveBack.units.toString() } : {}),
          ...(b.pauseAfter ? { pauseAfter: b.pauseAfter } : {}),
          ...(b.pauseWhy ? { pauseWhy: b.pauseWhy } : {}),
        })
      : '';
    const keys = finishKeys(this.keys, approvalId, execId, {
      velocity: {
        ledger: b?.giveBack?.ledger ?? how.release?.ledger,
        amounts: b?.giveBack?.amounts ?? how.release?.amounts,
      },
      ...(how.next ? { next: how.next } : {}),
    });
    const [ok, before, kind, seq, changed, view, was, is, nextState, nextTries, shape] = (await evalScript(
      this.redis,
      FINISH,
      keys.length,
      ...keys,
      execId,
      approvalId,
      to,
      from.join(','),
      token,
      JSON.stringify(entry),
      JSON.stringify(execFields),
      String(at),
      approvalFields,
      batchOptions,
      how.confirm ? JSON.stringify(how.confirm) : '',
      maskedCall,
    )) as [number, string, RequestKind?, number?, number?, ViewState?, string?, string?, string?, string?, string?];
    if (ok === 1 && changed === 1 && kind && seq && view) this.onChange({ id: approvalId, kind, state: view, seq });
    const prior = before === '' ? undefined : (before as ExecutionState);
    // On a refusal the third value is why (the script's {0, state, why}).
    if (ok !== 1) return { ok: false, from: prior, ...(kind ? { refused: kind as NotPaidRefusal } : {}) };
    const state = (s: string | undefined) => (s ? (s as never) : undefined);
    return {
      ok: true,
      from: prior,
      approval: { before: state(was), after: state(is) },
      shape: shape === 'batch' ? 'batch' : 'single',
      ...(how.next ? { next: { id: how.next, state: state(nextState), tries: Number(nextTries || '0') } } : {}),
    };
  }

  /**
   * Cancels the unsent executions of an approved approval, a page per script (unfreeze-cancel,
   * a batch's stop, BATCH_HOLD_LIMIT): a batch's rows give back their own units, a single its
   * whole velocity reservation, in the same script, which reads them from what the approval
   * stores (store/lua/includes/give-back.lua). Returns how many were cancelled.
   */
  async cancelQueued(approvalId: string, entry: Omit<HistoryEntry, 'at'>, pageSize = 500): Promise<number> {
    // One read for every page: the sealed request's mask and subject do not change between pages
    // (the approval is masked only once every execution is final, by the page that ends it).
    const [rawN, raw] = await this.redis.hmget(this.keys.approval(approvalId), 'n', SEALED_FIELD);
    const n = Number(rawN ?? '1');
    const sealed = readSealed(raw);
    const subject = subjectOf(sealed);
    let cancelled = 0;
    for (let offset = 0; offset < n; offset += pageSize) {
      const at = this.now();
      const page = Array.from({ length: Math.min(pageSize, n - offset) }, (_, i) =>
        executionId(approvalId, offset + i + 1),
      );
      const masked = maskedFields(sealed, at);
      const approvalFields = JSON.stringify({ decidedAt: String(at), ...masked?.approval });
      const keys = cancelQueuedKeys(this.keys, approvalId, page);
      const [count, , kind, seq, changed] = (await evalScript(
        this.redis,
        CANCEL_QUEUED,
        keys.length,
        ...keys,
        approvalId,
        JSON.stringify({ at, ...entry }),
        String(at),
        approvalFields,
        masked?.first ?? '',
        this.keys.ledgerPrefix,
        subject,
        JSON.stringify(page),
      )) as [number, string, RequestKind?, number?, number?];
      cancelled += count;
      if (changed === 1 && kind && seq) this.onChange({ id: approvalId, kind, state: 'cancelled', seq });
    }
    return cancelled;
  }

  /**
   * Cancels an approval inside its wait (store/lua/window-cancel.lua): every execution
   * queued → cancelled with the velocity reservation released (read from what the approval
   * stores), or nothing when a start won.
   */
  async cancelWaiting(
    approvalId: string,
    entry: Omit<HistoryEntry, 'at'> & { by: string },
  ): Promise<{ ok: true; cancelled: number } | { ok: false; why: string }> {
    const at = this.now();
    const [n, raw] = await this.redis.hmget(this.keys.approval(approvalId), 'n', SEALED_FIELD);
    const sealed = readSealed(raw);
    // The final state masks the stored personal data, in the same script.
    const masked = maskedFields(sealed, at);
    const fields = { decidedBy: entry.by, decidedAt: String(at), ...masked?.approval };
    const keys = windowCancelKeys(this.keys, approvalId, Number(n ?? '1'));
    const r = (await evalScript(
      this.redis,
      WINDOW_CANCEL,
      keys.length,
      ...keys,
      approvalId,
      JSON.stringify({ at, ...entry }),
      String(at),
      JSON.stringify(fields),
      masked?.first ?? '',
      this.keys.ledgerPrefix,
      subjectOf(sealed),
    )) as [number, string, number?, number?];
    const [count, kindOrWhy, seq, changed] = r;
    if (count === 0 && seq === undefined) return { ok: false, why: kindOrWhy };
    if (changed === 1 && seq)
      this.onChange({ id: approvalId, kind: kindOrWhy as RequestKind, state: 'cancelled', seq });
    return { ok: true, cancelled: count };
  }

  /**
   * Stores a not-paid proposal on an unknown execution, with its history entry, in one script
   * (store/lua/propose.lua): never over another pending one, never by the requester.
   */
  async propose(execId: string, proposal: NotPaidProposal, entry: HistoryEntry): Promise<ProposeResult> {
    const approvalId = approvalOf(execId);
    const keys = proposeKeys(this.keys, approvalId, execId);
    const [ok, from, why, pending] = (await evalScript(
      this.redis,
      PROPOSE,
      keys.length,
      ...keys,
      JSON.stringify(proposal),
      JSON.stringify(entry),
      proposal.by,
      execId,
      approvalId,
      String(entry.at),
    )) as [number, string, string?, string?];
    if (ok === 1) return { ok: true };
    return {
      ok: false,
      from: from ? (from as ExecutionState) : undefined,
      why: why === 'requester' || why === 'pending' ? why : 'state',
      ...(pending ? { pending: JSON.parse(pending) as NotPaidProposal } : {}),
    };
  }

  /** When it last started, its own sealed call (''), and the balance read once it became unknown. */
  async facts(execId: string): Promise<{ startedAt: number | undefined; call: string; reading?: BalanceReading }> {
    const [startedAt, call, reading] = await this.redis.hmget(
      this.keys.execution(execId),
      'startedAt',
      'call',
      'unknownReading',
    );
    return {
      startedAt: startedAt ? Number(startedAt) : undefined,
      call: call ?? '',
      ...(reading ? { reading: JSON.parse(reading) as BalanceReading } : {}),
    };
  }

  /** The wallet's balances read after the execution became unknown (once; off the money path). */
  async noteReading(execId: string, reading: BalanceReading): Promise<boolean> {
    return (await this.redis.hsetnx(this.keys.execution(execId), 'unknownReading', JSON.stringify(reading))) === 1;
  }

  /** One execution, or undefined. */
  async get(execId: string): Promise<ExecutionRecord | undefined> {
    return executionOf(execId, approvalOf(execId), await this.redis.hgetall(this.keys.execution(execId)));
  }

  /** Executions `offset + 1 … offset + limit` of an approval, in one pipelined read. */
  async page(approvalId: string, offset: number, limit: number, n?: number): Promise<ExecutionRecord[]> {
    const total = n ?? Number((await this.redis.hget(this.keys.approval(approvalId), 'n')) ?? '1');
    const ids = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
      executionId(approvalId, offset + i + 1),
    );
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hgetall(this.keys.execution(id));
    const rows = (await readReplies(pipe.exec())) as Record<string, string>[];
    return ids.flatMap((id, i) => executionOf(id, approvalId, rows[i] ?? {}) ?? []);
  }

  /** Executions between their compare-and-set and their answer (the reconciler's list). */
  async executingIds(): Promise<string[]> {
    return this.redis.zrange(this.keys.executing, '0', '-1');
  }

  /** Approvals approved or running with queued executions, oldest first (the freeze's held list). */
  async readyIds(limit = 500): Promise<string[]> {
    return this.redis.zrange(this.keys.ready, '0', String(limit - 1));
  }
}
