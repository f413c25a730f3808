/**
 * Issue 19 "Unknown outcomes a person can resolve": the service offers no transaction lookup, so
 * an approver other than the requester records what they found. `paid` counts as succeeded
 * (velocity kept), `not-paid` as failed (velocity given back in the same script as the move, so
 * exactly once; the requester may request it again). The unknown entry stays in the history; the
 * resolution is recorded with who and when (history, audit trail) and drives the card and thread.
 * One use case for Slack's /resolve and `rampart resolve`.
 */
import { type ExecutionState, executionId, parseExecutionId } from '../domain/approval.js';
import type { RequestOutcome, RequestRecord } from '../domain/request.js';
import type { Resolution } from '../domain/resolution.js';
import { velocitySubject } from '../domain/velocity.js';
import { type Authorisation, authorise } from './decide.js';
import type { AppDeps } from './deps.js';
import { paidDestinationOf, recordSuccess } from './execution-effects.js';

export type ResolveDeps = Pick<AppDeps, 'store' | 'queues' | 'controls' | 'approvers' | 'registry' | 'log' | 'now'>;

export type ResolveOutcome =
  | Authorisation
  | { kind: 'missing'; id: string }
  | { kind: 'which'; approvalId: string; count: number }
  | { kind: 'self'; executionId: string }
  | { kind: 'not-unknown'; executionId: string; state: ExecutionState | undefined }
  | { kind: 'resolved'; executionId: string; record: RequestRecord | undefined; paid: boolean };

/** What `paid` proves, stored where the card and reply look for it. */
function paidOutcome(record: RequestRecord, note: string): RequestOutcome {
  switch (record.frozen.call.kind) {
    case 'transfer':
      return { hash: note };
    case 'offramp':
      return { reference: note };
    case 'beneficiary':
      return { id: note };
    case 'register-beneficiary':
      return { message: note };
  }
}

export async function resolveUnknown(deps: ResolveDeps, user: string, r: Resolution): Promise<ResolveOutcome> {
  const refused = await authorise(deps, user);
  if (refused) return refused;
  const parsed = parseExecutionId(r.id);
  const approvalId = parsed?.approvalId ?? r.id;
  const record = await deps.store.get(approvalId);
  if (!record) return { kind: 'missing', id: approvalId };
  // A plain R-1234 means its only execution; a batch's must be named.
  if (!parsed && record.executionCount > 1) return { kind: 'which', approvalId, count: record.executionCount };
  const execId = parsed ? r.id : executionId(approvalId, 1);
  const n = parsed?.n ?? 1;
  if (n < 1 || n > record.executionCount) return { kind: 'missing', id: execId };
  // The requester never settles their own payment, as they never approve it (DESIGN invariant 1).
  if (record.frozen.requester === user) return { kind: 'self', executionId: execId };
  const execution = (await deps.store.executions.get(execId)) ?? record.executions.find((e) => e.id === execId);
  if (execution?.state !== 'unknown') return { kind: 'not-unknown', executionId: execId, state: execution?.state };

  const at = deps.now();
  const resolution = { by: user, at, paid: r.paid };
  const outcome: RequestOutcome = r.paid
    ? { ...paidOutcome(record, r.note), resolution }
    : { message: r.note, resolution };
  const subject = r.paid ? undefined : velocitySubject(record.frozen);
  const moved = await deps.store.executions.finish(
    execId,
    '',
    r.paid ? 'succeeded' : 'failed',
    outcome,
    `resolved by a person: ${r.paid ? 'paid' : 'not paid'}: ${r.note}`,
    {
      from: ['unknown'],
      by: user,
      ...(subject
        ? { release: { ledger: deps.controls.ledgerKey(subject), amounts: deps.controls.amountsKey(subject) } }
        : {}),
    },
  );
  // Someone else resolved it between the read and the move: theirs stands.
  if (!moved.ok) return { kind: 'not-unknown', executionId: execId, state: moved.from };
  deps.log.info({ executionId: execId, by: user, paid: r.paid }, 'unknown outcome resolved by a person');
  if (r.paid)
    await recordSuccess(
      { registry: deps.registry, now: deps.now, addPayee: (c, a) => deps.store.addPayee(c, a) },
      record.frozen,
      outcome,
      record.decidedBy,
      paidDestinationOf(record, execution),
    ).catch((err: unknown) => deps.log.warn({ err, executionId: execId }, 'could not record what the payment added'));
  const single = record.executionCount === 1;
  await deps.queues.notify({ requestId: approvalId, kind: single ? 'outcome' : 'card' });
  return { kind: 'resolved', executionId: execId, record: await deps.store.get(approvalId), paid: r.paid };
}
