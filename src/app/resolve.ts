/**
 * A person's verdict on an outcome-unknown execution (the service offers no transaction lookup).
 * `paid` records it as succeeded (velocity kept) with the proof its chain or the service gives
 * (domain/paid-proof.ts). `not-paid` is what could make money move twice, so it only PROPOSES:
 * a second approver confirms it (app/confirm-not-paid.ts), and only that moves it to failed.
 * The unknown entry stays in the history; every step is in it, with who, when and the evidence,
 * so the audit trail holds it. One use case for Slack's /resolve, its form and `rampart resolve`.
 */
import { randomBytes } from 'node:crypto';
import { type ExecutionState, isSingleExecution, parseExecutionId } from '../domain/approval.js';
import { executionOfRow } from '../domain/batch-status.js';
import { type NotPaidProposal, proposalId } from '../domain/not-paid.js';
import { paidProofProblem } from '../domain/paid-proof.js';
import type { ExecutionRecord, HistoryEntry, RequestOutcome, RequestRecord } from '../domain/request.js';
import { parseRowRef, type Resolution } from '../domain/resolution.js';
import { noSelfApproval } from '../domain/rules/index.js';
import type { NotPaidRefusal } from '../store/executions.js';
import { type Authorisation, authorise } from './decide.js';
import type { AppDeps } from './deps.js';
import { paidDestinationOf, recordSuccess } from './execution-effects.js';

export type ResolveDeps = Pick<
  AppDeps,
  'store' | 'queues' | 'controls' | 'approvers' | 'registry' | 'log' | 'now' | 'config'
>;

/** Where a verdict came from: `rampart resolve` may record paid or propose, never confirm. */
export type Via = 'slack' | 'cli';

export type ResolveOutcome =
  | Authorisation
  | { kind: 'missing'; id: string }
  | { kind: 'self'; executionId: string }
  | { kind: 'not-unknown'; executionId: string; state: ExecutionState | undefined }
  | { kind: 'bad-proof'; executionId: string; problem: string }
  | { kind: 'paid'; executionId: string; record: RequestRecord | undefined; superseded?: NotPaidProposal }
  | { kind: 'proposed'; executionId: string; proposal: NotPaidProposal; record: RequestRecord }
  | { kind: 'pending'; executionId: string; proposal: NotPaidProposal }
  | { kind: 'confirmed'; executionId: string; proposal: NotPaidProposal; record: RequestRecord | undefined }
  | { kind: 'refused'; executionId: string; why: NotPaidRefusal | 'cli'; proposal?: NotPaidProposal };

/** An outcome-unknown execution this person may settle, or what to answer instead. */
export type Found =
  | { ok: true; executionId: string; approvalId: string; record: RequestRecord; execution: ExecutionRecord }
  | { ok: false; outcome: ResolveOutcome };

export async function findUnknown(deps: ResolveDeps, user: string, execId: string): Promise<Found> {
  const refused = await authorise(deps, user);
  if (refused) return { ok: false, outcome: refused };
  const parsed = parseExecutionId(execId);
  if (!parsed) return { ok: false, outcome: { kind: 'missing', id: execId } };
  const record = await deps.store.get(parsed.approvalId);
  if (!record) return { ok: false, outcome: { kind: 'missing', id: parsed.approvalId } };
  if (parsed.n < 1 || parsed.n > record.executionCount) return { ok: false, outcome: { kind: 'missing', id: execId } };
  // The requester never settles their own payment, as they never approve it (DESIGN invariant 1).
  if (!noSelfApproval({ user }, record.sealed.requester).ok)
    return { ok: false, outcome: { kind: 'self', executionId: execId } };
  const execution = (await deps.store.executions.get(execId)) ?? record.executions.find((e) => e.id === execId);
  if (execution?.state !== 'unknown' || !execution)
    return { ok: false, outcome: { kind: 'not-unknown', executionId: execId, state: execution?.state } };
  return { ok: true, executionId: execId, approvalId: parsed.approvalId, record, execution };
}

/** History entries of a single request stay unnamed; a batch's name their execution. */
export const aboutExecution = (record: RequestRecord, execId: string): { execution?: string } =>
  isSingleExecution(record.shape, execId) ? {} : { execution: execId };

const fromCli = (via: Via) => (via === 'cli' ? ' (from the CLI)' : '');

/** What `paid` proves, stored where the card and reply look for it. */
function paidOutcome(record: RequestRecord, note: string): RequestOutcome {
  switch (record.sealed.call.kind) {
    case 'transfer':
      return { hash: note };
    case 'offramp':
      return { reference: note };
    case 'beneficiary':
      return { id: note };
    case 'register-beneficiary':
    case 'address-book':
      return { message: note };
  }
}

/**
 * The execution a typed name means: `B-1003 row 2` is the batch's execution for row 2 of its file
 * (domain/batch-status.ts executionOfRow); an execution id stays as typed. Undefined: no such row.
 */
export async function executionIdOf(deps: Pick<ResolveDeps, 'store'>, typed: string): Promise<string | undefined> {
  const row = parseRowRef(typed);
  if (!row) return typed;
  const record = await deps.store.get(row.approvalId);
  return record ? executionOfRow(record, row.row) : undefined;
}

/** The answer names the payment as it was typed ("B-1003 row 2" stays so, never "B-1003.1"). */
const asTyped = (o: ResolveOutcome, typed: string): ResolveOutcome =>
  'executionId' in o ? { ...o, executionId: typed } : o;

/** /resolve and `rampart resolve`: paid takes effect; not-paid records a proposal only. */
export async function resolveUnknown(
  deps: ResolveDeps,
  user: string,
  r: Resolution,
  via: Via = 'slack',
): Promise<ResolveOutcome> {
  const execId = await executionIdOf(deps, r.id);
  if (!execId) return { kind: 'missing', id: r.id };
  const outcome = r.paid
    ? await recordPaid(deps, user, execId, r.note, via)
    : await proposeNotPaid(deps, user, execId, r.note, via);
  return asTyped(outcome, r.id);
}

export async function recordPaid(
  deps: ResolveDeps,
  user: string,
  execId: string,
  proof: string,
  via: Via = 'slack',
): Promise<ResolveOutcome> {
  const found = await findUnknown(deps, user, execId);
  if (!found.ok) return found.outcome;
  const { record, approvalId, execution } = found;
  const problem = paidProofProblem(record.sealed.call, proof);
  if (problem) return { kind: 'bad-proof', executionId: execId, problem };
  const at = deps.now();
  const resolution = { by: user, at, paid: true, ...(via === 'cli' ? { via } : {}) };
  const outcome: RequestOutcome = { ...paidOutcome(record, proof), resolution };
  const superseded = execution.proposal;
  const over = superseded ? `; supersedes not-paid proposal ${superseded.id} by ${superseded.by}` : '';
  const moved = await deps.store.executions.finish(
    execId,
    '',
    'succeeded',
    outcome,
    `resolved by a person: paid: ${proof}${over}${fromCli(via)}`,
    { from: ['unknown'], by: user },
  );
  // Someone else resolved it between the read and the move: theirs stands.
  if (!moved.ok) return { kind: 'not-unknown', executionId: execId, state: moved.from };
  deps.log.info({ executionId: execId, by: user, via }, 'unknown outcome recorded as paid');
  await recordSuccess(
    { registry: deps.registry, now: deps.now, addPayee: (c, a) => deps.store.addPayee(c, a) },
    record.sealed,
    outcome,
    record.decidedBy,
    paidDestinationOf(record, execution),
  ).catch((err: unknown) => deps.log.warn({ err, executionId: execId }, 'could not record what the payment added'));
  await deps.queues.notify({ requestId: approvalId, kind: record.executionCount === 1 ? 'outcome' : 'card' });
  return {
    kind: 'paid',
    executionId: execId,
    record: await deps.store.get(approvalId),
    ...(superseded ? { superseded } : {}),
  };
}

export async function proposeNotPaid(
  deps: ResolveDeps,
  user: string,
  execId: string,
  why: string,
  via: Via = 'slack',
): Promise<ResolveOutcome> {
  const found = await findUnknown(deps, user, execId);
  if (!found.ok) return found.outcome;
  const at = deps.now();
  const proposal: NotPaidProposal = {
    id: proposalId(randomBytes(4).toString('hex')),
    by: user,
    at,
    why,
    ...(via === 'cli' ? { via } : {}),
  };
  const entry: HistoryEntry = {
    at,
    event: 'not-paid-proposed',
    by: user,
    detail: `proposed not paid (${proposal.id}), waiting for a second approver: ${why}${fromCli(via)}`,
    ...aboutExecution(found.record, execId),
  };
  const r = await deps.store.executions.propose(execId, proposal, entry);
  if (!r.ok) {
    if (r.why === 'pending' && r.pending) return { kind: 'pending', executionId: execId, proposal: r.pending };
    if (r.why === 'requester') return { kind: 'self', executionId: execId };
    return { kind: 'not-unknown', executionId: execId, state: r.from };
  }
  deps.log.info({ executionId: execId, by: user, proposal: proposal.id, via }, 'not paid proposed');
  // The card shows the proposal with its Confirm button; the thread mentions the approvers.
  await deps.queues.notify({ requestId: found.approvalId, kind: 'proposal' });
  return { kind: 'proposed', executionId: execId, proposal, record: found.record };
}
