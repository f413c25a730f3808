/**
 * Cancelling with an API key: only the key that made a request may cancel it (domain/api-rules.ts
 * keyCancelOutcome), then the cancel use case as the key's owner, who is its requester.
 */
import { type KeyActor, keyCancelOutcome } from '../../domain/api-rules.js';
import { APPROVAL_ID } from '../../domain/approval.js';
import type { RequestRecord } from '../../domain/request.js';
import type { WaitingCancelCode } from '../../domain/rules/time.js';
import { type CancelOutcome, cancel } from '../decide.js';
import { cancelWaiting } from './cancel-waiting.js';

type DecideDeps = Parameters<typeof cancel>[0] & Parameters<typeof cancelWaiting>[0];

export type KeyCancel =
  | { kind: 'not_found' }
  | { kind: 'not_cancellable'; message: string }
  /** Cancelled: the request as it now is. */
  | { kind: 'cancelled'; record: RequestRecord | undefined }
  /** A cancel inside the wait refused: a start won ('already_started'), or it is not waiting. */
  | { kind: 'refused'; code: WaitingCancelCode }
  | Exclude<CancelOutcome, { kind: 'cancelled' | 'missing' }>;

export async function cancelWithKey(deps: DecideDeps, actor: KeyActor, id: string): Promise<KeyCancel> {
  const key = actor.apiKey;
  const r = APPROVAL_ID.test(id) ? await deps.store.get(id) : undefined;
  const may = keyCancelOutcome(key, r);
  if (!may.ok) return may.code === 'not_found' ? { kind: 'not_found' } : { kind: may.code, message: may.message };
  // Approved with a runAt: the cancel inside the wait, as the key (its owner is the requester);
  // once a start won, "already started".
  if (r && r.approvalState !== 'pending' && r.runAt !== undefined) {
    const waiting = await cancelWaiting(deps, id, actor);
    if (waiting.kind === 'cancelled') return { kind: 'cancelled', record: waiting.record };
    if (waiting.kind === 'refused') return { kind: 'refused', code: waiting.code };
    if (waiting.kind === 'missing') return { kind: 'not_found' };
  }
  const outcome = await cancel(deps, id, key.owner);
  if (outcome.kind === 'cancelled') return { kind: 'cancelled', record: await deps.store.get(id) };
  if (outcome.kind === 'missing') return { kind: 'not_found' };
  return outcome;
}
