/**
 * Reading approval and execution hashes into the records adapters use. Reads both
 * formats: a record written before format 2 (no `v`) is shown as an approval with one execution,
 * exactly as the scripts would migrate it.
 */
import {
  type ApprovalShape,
  type ApprovalState,
  EXECUTION_STATES,
  type ExecutionCounts,
  type ExecutionState,
  emptyCounts,
  SINGLE_STATES,
  singleCounts,
  type ViewState,
  viewState,
} from '../domain/approval.js';
import type { NotPaidProposal } from '../domain/not-paid.js';
import type {
  ExecutionRecord,
  RequestOutcome,
  RequestRecord,
  SealedRequest,
  ServiceCall,
  Vote,
} from '../domain/request.js';
import { readSealed, SEALED_FIELD } from './sealed-field.js';

type Hash = Record<string, string>;

export function countsOf(h: Hash): ExecutionCounts {
  const counts = emptyCounts();
  for (const s of EXECUTION_STATES) counts[s] = Number(h[`c:${s}`] ?? '0');
  return counts;
}

export function executionOf(id: string, approvalId: string, e: Hash): ExecutionRecord | undefined {
  if (!e.state) return undefined;
  const record: ExecutionRecord = {
    id,
    approvalId,
    state: e.state as ExecutionState,
    sealHash: e.sealHash ?? '',
    tries: Number(e.tries ?? '0'),
  };
  if (e.job) record.job = e.job;
  if (e.dest) record.destinationKey = e.dest;
  if (e.entry) record.entryId = e.entry;
  if (e.outcome) record.outcome = JSON.parse(e.outcome) as RequestOutcome;
  if (e.notPaid) record.proposal = JSON.parse(e.notPaid) as NotPaidProposal;
  return record;
}

/** The sealed call an execution runs: its own, or (records migrated from before format 2) the approval's. */
export const sealedCallOf = (execCall: string, sealed: SealedRequest): ServiceCall =>
  execCall ? (JSON.parse(execCall) as ServiceCall) : sealed.call;

/**
 * The approval's stored shape; a record the scripts have not migrated yet (format 1 or 2) is
 * read as store/lua/includes/migrate.lua will write it: a batch's sealed request carries its
 * card facts, and a batch of several rows has several executions.
 */
export function shapeOf(h: Hash, sealed: SealedRequest | undefined): ApprovalShape {
  if (h.shape === 'single' || h.shape === 'batch' || h.shape === 'series') return h.shape;
  return sealed?.display?.batch !== undefined || Number(h.n ?? '1') > 1 ? 'batch' : 'single';
}

/**
 * `h` is the approval hash, `first` the hash of its execution 1 (empty for old records), `more`
 * its first page of executions when it has several.
 */
export function recordOf(id: string, h: Hash, first: Hash, more: ExecutionRecord[] = []): RequestRecord | undefined {
  const sealed = readSealed(h[SEALED_FIELD]);
  if (!sealed || !h.state) return undefined;
  let state: ViewState;
  let approvalState: ApprovalState;
  let counts: ExecutionCounts;
  let executions: ExecutionRecord[];
  let executionCount: number;
  if (h.v) {
    approvalState = h.state as ApprovalState;
    counts = countsOf(h);
    state = viewState(approvalState, counts);
    executionCount = Number(h.n ?? '1');
    const one = executionOf(`${id}.1`, id, first);
    executions = executionCount === 1 ? (one ? [one] : []) : more;
  } else {
    // Before format 2 the record stored the view itself; read as the scripts migrate it.
    const [a, e] = SINGLE_STATES[h.state as ViewState];
    approvalState = a;
    counts = singleCounts(e);
    state = viewState(approvalState, counts);
    executionCount = 1;
    const tries = state === 'pending' || state === 'approved' || state === 'cancelled' ? 0 : 1;
    executions = [{ id: `${id}.1`, approvalId: id, state: e, sealHash: sealed.hash, tries }];
  }
  const record: RequestRecord = {
    sealed,
    shape: shapeOf(h, sealed),
    state,
    votes: JSON.parse(h.votes ?? '[]') as Vote[],
    approvalState,
    executionCount,
    counts,
    executions,
  };
  if (h.decidedBy) record.decidedBy = h.decidedBy;
  if (h.decidedAt) record.decidedAt = Number(h.decidedAt);
  if (h.runAt) record.runAt = Number(h.runAt);
  if (h.denyReason) record.denyReason = h.denyReason;
  // A single request's outcome is its execution's; old records kept it on the request.
  const outcome = executionCount === 1 && h.v ? first.outcome : h.outcome;
  if (outcome) record.outcome = JSON.parse(outcome) as RequestOutcome;
  if (h.card) record.card = JSON.parse(h.card) as { channel: string; ts: string };
  if (h.held) record.held = h.held;
  if (h.pausedWhy && h.state === 'paused') record.pauseReason = h.pausedWhy;
  if (h.escalatedAt) record.escalatedAt = Number(h.escalatedAt);
  if (h.series && h.run) record.run = { series: h.series, k: Number(h.run) };
  return record;
}
