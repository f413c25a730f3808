/**
 * Freezes a request and puts it up for approval: stored in Redis with its history, expiry
 * scheduled as a delayed job (survives restarts), card posted by the notify worker.
 */
import { callHash, type FrozenRequest, type RequestDisplay, type ServiceCall } from '../domain/request.js';
import type { AppDeps } from './deps.js';

export interface NewRequest {
  call: ServiceCall;
  display: RequestDisplay;
  requester: string;
  reason: string;
  origin: string | undefined;
  required: number;
  rule: string;
  /** The modal's view id: one submitted form makes at most one request. */
  submission: string;
  /** Issue 13: see FrozenRequest. */
  availableUnits?: string;
  velocityNote?: string;
}

/**
 * Stores the frozen request; call `announce` after acking Slack. Returns undefined when this
 * form was already turned into a request (a repeated submission), so nothing is posted twice.
 */
export async function freezeRequest(
  deps: Pick<AppDeps, 'store' | 'now' | 'config'>,
  r: NewRequest,
): Promise<FrozenRequest | undefined> {
  const now = deps.now();
  const id = await deps.store.nextId();
  if (!(await deps.store.claimSubmission(r.submission, id))) return undefined;
  const frozen: FrozenRequest = {
    id,
    call: r.call,
    display: r.display,
    requester: r.requester,
    reason: r.reason,
    origin: r.origin,
    createdAt: now,
    expiresAt: now + deps.config.requestExpiryMs,
    requiredApprovals: r.required,
    rule: r.rule,
    hash: callHash(r.call),
    ...(r.availableUnits === undefined ? {} : { availableUnits: r.availableUnits }),
    ...(r.velocityNote === undefined ? {} : { velocityNote: r.velocityNote }),
  };
  await deps.store.create(frozen);
  return frozen;
}

export async function announce(deps: Pick<AppDeps, 'queues' | 'log' | 'now'>, frozen: FrozenRequest): Promise<void> {
  deps.log.info(
    { requestId: frozen.id, kind: frozen.call.kind, requester: frozen.requester, hash: frozen.hash },
    'request posted',
  );
  await deps.queues.scheduleExpiry(frozen.id, frozen.expiresAt - deps.now());
  await deps.queues.notify({ requestId: frozen.id, kind: 'card' });
}
