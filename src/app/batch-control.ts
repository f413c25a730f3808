/**
 * Resume and Stop on a batch's card, authorised on the server at each click:
 * Resume is one approver other than the requester; Stop is the requester or any approver, any
 * time before the batch is final, and cancels every unsent row. Both are recorded in history.
 */
import { noSelfApproval, stepUpProofRule } from '../domain/rules/index.js';
import type { PasskeyProof } from '../domain/step-up.js';
import type { ServiceClient } from '../service/client.js';
import { fundingShortfall } from './batch-funding.js';
import { cancelUnsent, continueBatch } from './batch-run.js';
import { type Authorisation, memberOf } from './decide.js';
import type { AppDeps } from './deps.js';

/** `service`: the balance for Resume's funding check; the passkey page's Resume was checked when it was offered. */
type ControlDeps = Pick<AppDeps, 'store' | 'queues' | 'approvers' | 'log' | 'controls'> & {
  service?: Pick<ServiceClient, 'getBalances'>;
};

export type BatchControlOutcome =
  | Authorisation
  | { kind: 'missing' }
  | { kind: 'self'; requestId: string }
  | { kind: 'not-allowed'; requestId: string }
  /** The batch is not in a state this click applies to (already running, stopped, done…). */
  | { kind: 'late'; requestId: string; state: string | undefined }
  | { kind: 'resumed'; requestId: string }
  /** The wallet cannot pay the unsent rows: the batch stays paused ("Not resumed: ops holds …"). */
  | { kind: 'unfunded'; requestId: string; shortfall: string }
  /** A step-up batch resumes only with a passkey (the edge offers the page). */
  | { kind: 'step-up'; requestId: string }
  | { kind: 'stopped'; requestId: string; cancelled: number };

const _PAGE = 500;

/** `passkey`: only from the step-up page, after the assertion was verified (app/step-up.ts). */
export async function resumeBatch(
  deps: ControlDeps,
  requestId: string,
  user: string,
  passkey?: PasskeyProof,
): Promise<BatchControlOutcome> {
  const record = await deps.store.get(requestId);
  if (record?.shape !== 'batch') return { kind: 'missing' };
  if (!noSelfApproval({ user }, record.sealed.requester).ok) return { kind: 'self', requestId };
  const refused = await memberOf(deps.approvers, deps.log, user);
  if (refused) return refused;
  // Checked before a passkey is asked for and before the move: "resumed" then a re-pause would
  // be untrue. Unreadable balance: resumed, and the batch's own check at its next row decides.
  const funding = deps.service
    ? await fundingShortfall({ service: deps.service, store: deps.store, log: deps.log }, record)
    : ({ kind: 'unchecked' } as const);
  if (funding.kind === 'short') return { kind: 'unfunded', requestId, shortfall: funding.sentence };
  if (!stepUpProofRule(record.sealed.stepUp === true, passkey !== undefined).ok) return { kind: 'step-up', requestId };
  const moved = await deps.store.batches.resume(requestId, user, passkey);
  if (!moved.ok) return { kind: 'late', requestId, state: moved.state };
  deps.log.info({ requestId, by: user }, 'batch resumed');
  await continueBatch({ store: deps.store, jobs: deps.queues, log: deps.log }, requestId);
  await deps.queues.notify({ requestId, kind: 'card' });
  return { kind: 'resumed', requestId };
}

export async function stopBatch(deps: ControlDeps, requestId: string, user: string): Promise<BatchControlOutcome> {
  const record = await deps.store.get(requestId);
  if (record?.shape !== 'batch') return { kind: 'missing' };
  if (record.sealed.requester !== user) {
    const refused = await memberOf(deps.approvers, deps.log, user);
    if (refused) return refused.kind === 'not-approver' ? { kind: 'not-allowed', requestId } : refused;
  }
  const moved = await deps.store.batches.stop(requestId, user);
  if (!moved.ok) return { kind: 'late', requestId, state: moved.state };
  // Each cancelled row gives its own velocity reservation back in the cancelling script.
  const cancelled = await cancelUnsent({ ...deps, jobs: deps.queues }, requestId, {
    event: 'cancelled',
    by: user,
    detail: 'batch stopped: unsent rows cancelled',
  });
  deps.log.info({ requestId, by: user, cancelled }, 'batch stopped');
  await deps.queues.notify({ requestId, kind: 'card' });
  return { kind: 'stopped', requestId, cancelled };
}
