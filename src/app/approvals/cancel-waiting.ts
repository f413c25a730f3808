/**
 * A cancel inside an approval's wait (a cancel window or a set time): any one approver or the
 * requester (domain/rules/time.ts waitingCancelRule), then one script that cancels every execution
 * and releases the velocity reservation, or answers "already started" when a start won the race.
 */
import { type Actor, actorSource } from '../../domain/actor.js';
import type { RequestRecord } from '../../domain/request.js';
import { type WaitingCancelCode, waitingCancelRule } from '../../domain/rules/time.js';
import { authorise } from '../decide.js';
import type { AppDeps } from '../deps.js';

type CancelDeps = Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'log'>;

export type WaitingCancel =
  | { kind: 'missing' }
  | { kind: 'approver-check-failed'; error: unknown }
  | { kind: 'refused'; code: WaitingCancelCode; requestId: string }
  | { kind: 'cancelled'; requestId: string; record: RequestRecord | undefined };

const startedOf = (r: RequestRecord) => r.counts.executing + r.counts.succeeded + r.counts.failed + r.counts.unknown;

export async function cancelWaiting(deps: CancelDeps, requestId: string, actor: Actor): Promise<WaitingCancel> {
  const record = await deps.store.get(requestId);
  if (!record) return { kind: 'missing' };
  let isApprover = false;
  if (actor.user !== record.sealed.requester) {
    const refused = await authorise(deps, actor.user);
    if (refused?.kind === 'approver-check-failed') return refused;
    isApprover = refused === undefined;
  }
  const rule = waitingCancelRule(actor, {
    requester: record.sealed.requester,
    isApprover,
    approvalState: record.approvalState,
    started: startedOf(record),
    runAt: record.runAt,
  });
  if (!rule.ok) return { kind: 'refused', code: rule.code, requestId };
  const source = actorSource(actor);
  const r = await deps.store.executions.cancelWaiting(requestId, {
    event: 'cancelled',
    by: actor.user,
    detail: `cancelled while waiting to run${source ? ` (${source})` : ''}; nothing was sent`,
  });
  if (!r.ok) return { kind: 'refused', code: r.why === 'started' ? 'already_started' : 'not_waiting', requestId };
  deps.log.info({ requestId, by: actor.user, cancelled: r.cancelled }, 'waiting approval cancelled');
  // The thread says who cancelled; the card shows it.
  await deps.queues.notify({ requestId, kind: 'outcome' });
  return { kind: 'cancelled', requestId, record: await deps.store.get(requestId) };
}
