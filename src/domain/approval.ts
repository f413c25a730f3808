/**
 * An approval owns one or more executions: the
 * approval carries requester, votes, policy, card and history; each execution one sealed service
 * call with its own compare-and-set, token and outcome. A single request is an approval with one
 * execution. Pure: the store applies these moves atomically in Redis (store/lua/).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from './canonical-json.js';
import type { Timing } from './request.js';

/** The one-word state adapters show and list by (today's request states; see viewState). */
export const VIEW_STATES = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'unknown',
  'denied',
  'cancelled',
  'expired',
] as const;
export type ViewState = (typeof VIEW_STATES)[number];

/** A sealed service call as hashed here (domain/request.ts ServiceCall). */
type Call = { kind: string; body: object };

export const APPROVAL_STATES = [
  'pending',
  'approved',
  'running',
  // Batches: a paused batch starts nothing until resumed; stopping cancels what is unsent.
  'paused',
  'stopping',
  'done',
  'denied',
  'cancelled',
  'expired',
] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export const APPROVAL_TRANSITIONS: Readonly<Record<ApprovalState, readonly ApprovalState[]>> = {
  pending: ['approved', 'denied', 'cancelled', 'expired'],
  // approved → done when every execution was cancelled before one started (unfreeze-cancel).
  approved: ['running', 'paused', 'stopping', 'done'],
  running: ['paused', 'stopping', 'done'],
  paused: ['running', 'stopping', 'done'],
  stopping: ['done'],
  done: [],
  denied: [],
  cancelled: [],
  expired: [],
};

/** May an execution of an approval in this state start (checked again inside the start script)? */
export const RUNNABLE_APPROVAL_STATES: ReadonlySet<ApprovalState> = new Set(['approved', 'running']);
export const FINAL_APPROVAL_STATES: ReadonlySet<ApprovalState> = new Set(['done', 'denied', 'cancelled', 'expired']);

export const EXECUTION_STATES = ['queued', 'executing', 'succeeded', 'failed', 'unknown', 'cancelled'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

export const EXECUTION_TRANSITIONS: Readonly<Record<ExecutionState, readonly ExecutionState[]>> = {
  queued: ['executing', 'cancelled'],
  // executing → queued only when the call provably never left (no byte written, or WAIT unacknowledged).
  executing: ['succeeded', 'failed', 'unknown', 'queued'],
  // A late real answer, or a person's recorded resolution, replaces "unknown".
  unknown: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export const canMoveApproval = (from: ApprovalState, to: ApprovalState): boolean =>
  APPROVAL_TRANSITIONS[from].includes(to);
export const canMoveExecution = (from: ExecutionState, to: ExecutionState): boolean =>
  EXECUTION_TRANSITIONS[from].includes(to);

/** Executions per state; an approval's `done` carries these. */
export type ExecutionCounts = Record<ExecutionState, number>;
export const emptyCounts = (): ExecutionCounts => ({
  queued: 0,
  executing: 0,
  succeeded: 0,
  failed: 0,
  unknown: 0,
  cancelled: 0,
});

/**
 * Today's one-word state that adapters show and list by (cards, App Home, CLI, metrics, audit):
 * for one execution exactly the old request state; for many, a summary. Mirrored in Lua
 * (store/lua/includes/approval.lua viewOf) so the per-state indexes move in the same script.
 */
export function viewState(approval: ApprovalState, counts: ExecutionCounts): ViewState {
  switch (approval) {
    case 'pending':
    case 'denied':
    case 'cancelled':
    case 'expired':
      return approval;
    case 'done':
      if (counts.unknown > 0) return 'unknown';
      if (counts.failed > 0) return 'failed';
      if (counts.succeeded > 0) return 'succeeded';
      return 'cancelled';
    default:
      return counts.executing > 0 ? 'executing' : 'approved';
  }
}

/**
 * What an approval is: one payment, or a batch of rows. Stored on the approval (`shape`) by the
 * create script and read from there, never inferred from the call's kind or from the id.
 */
export const APPROVAL_SHAPES = ['single', 'batch', 'series'] as const;
export type ApprovalShape = (typeof APPROVAL_SHAPES)[number];

// Ids: no '#' (URLs) and no ':' (BullMQ job ids) anywhere.
// A series (`S-<n>`) is an approval with a card but no execution of its own: its runs are
// approvals of their own (`R-<n>`, `B-<n>`), so an execution's id never names a series.
export const APPROVAL_ID = /^[RBS]-\d+$/;
export const EXECUTION_ID = /^([RB]-\d+)\.(\d+)$/;
export const executionId = (approvalId: string, n: number): string => `${approvalId}.${n}`;

export function parseExecutionId(id: string): { approvalId: string; n: number } | undefined {
  const m = EXECUTION_ID.exec(id);
  return m?.[1] && m[2] ? { approvalId: m[1], n: Number(m[2]) } : undefined;
}

/** One BullMQ job per try: a fresh id each time (BullMQ silently drops an add of an id it keeps). */
/**
 * A single request's execution 1 reads as the request itself (its history entries and notices,
 * as before approvals had executions); any other execution is named.
 */
export const isSingleExecution = (shape: ApprovalShape | undefined, execId: string): boolean =>
  shape === 'single' && parseExecutionId(execId)?.n === 1;

export const tryJobId = (executionId: string, attempt: number): string => `${executionId}-t${attempt}`;

/**
 * A worker's run of execution 1 straight from its quorum's wake (adapters/jobs/wake-runner.ts),
 * with no BullMQ job: `<execution>-d<runner>-<n>`. Unique per run, so a second wake of the same
 * execution in the same process never takes the first run for its own; `runner` names the
 * worker process whose lease says whether the run may still be going.
 */
export const wakeRunId = (executionId: string, runner: string, n: number): string => `${executionId}-d${runner}-${n}`;
export const wakeRunnerOf = (jobId: string): string | undefined => /-d([0-9a-f]{16})-\d+$/.exec(jobId)?.[1];

/**
 * A quorum's wake-up: a run from the wake list, or the BullMQ job (`<execution>-w<nonce>`) that a
 * web process of an earlier version sends behind every approving click. Either is expected to
 * find nothing to start at times (before the quorum, on a decided card).
 */
export const isWakeJob = (jobId: string): boolean => /-w[0-9a-f]+$/.test(jobId) || wakeRunnerOf(jobId) !== undefined;

const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** Full SHA-256 of one execution's canonical call (ids resolved, exact amount). */
export const sealHash = (call: Call): string => sha256Hex(canonicalJson(call));

/**
 * SHA-256 of kind, wallet, asset, the ordered sealHashes, for a payment that waits its timing, and
 * for a series its sealed run dates: what an approval commits to. "Runs Friday at 09:00" and
 * "monthly on the 1st, 12 runs" are part of what the approvers saw, so a passkey vote binds them
 * too; a series' one sealHash is its template, the call every run sends. A request with neither
 * hashes as it always did.
 */
export const approvalHash = (
  kind: string,
  wallet: string,
  asset: string,
  sealHashes: readonly string[],
  timing?: Timing,
  runs?: readonly number[],
): string => {
  const waits = hashedTiming(timing);
  return sha256Hex(
    canonicalJson({
      kind,
      wallet,
      asset,
      seals: sealHashes,
      ...(waits ? { timing: waits } : {}),
      ...(runs ? { runs } : {}),
    }),
  );
};

/** The timing a request stores and hashes: only one that makes it wait (a delay or a set time). */
export const hashedTiming = (timing: Timing | undefined): Timing | undefined =>
  timing && (timing.delayMs !== undefined || timing.notBefore !== undefined) ? timing : undefined;

/** The approvalHash of a list of calls (the first call names wallet and asset; all share them). */
export function approvalHashOf(calls: readonly Call[], timing?: Timing, runs?: readonly number[]): string {
  const first = calls[0];
  const body = first?.body as { wallet_id?: string; asset?: string } | undefined;
  return approvalHash(first?.kind ?? '', body?.wallet_id ?? '', body?.asset ?? '', calls.map(sealHash), timing, runs);
}

/** What a card shows: the first 10 characters of the approvalHash. */
export const cardHash = (approvalHashHex: string): string => approvalHashHex.slice(0, 10);

/**
 * Does `call` still match the seal stored at submission? Records written before format 2 kept only
 * the first 10 characters of the call's SHA-256; those are compared as such.
 */
export const matchesSeal = (call: Call, stored: string): boolean =>
  stored.length === 64 ? sealHash(call) === stored : sealHash(call).slice(0, 10) === stored;

/**
 * A request state written before format 2, as an approval with one execution (migration and
 * reading old records; store/lua/includes/migrate.lua mirrors it).
 */
export const SINGLE_STATES: Readonly<Record<ViewState, readonly [ApprovalState, ExecutionState]>> = {
  pending: ['pending', 'queued'],
  approved: ['approved', 'queued'],
  executing: ['running', 'executing'],
  succeeded: ['done', 'succeeded'],
  failed: ['done', 'failed'],
  unknown: ['done', 'unknown'],
  denied: ['denied', 'cancelled'],
  cancelled: ['cancelled', 'cancelled'],
  expired: ['expired', 'cancelled'],
};

export function singleCounts(state: ExecutionState): ExecutionCounts {
  const counts = emptyCounts();
  counts[state] = 1;
  return counts;
}
