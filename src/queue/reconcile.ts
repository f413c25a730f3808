/**
 * Keeps the record and BullMQ in step after crashes (DESIGN invariant 4): an approved request
 * with no live job is queued again; an executing request whose job is no longer running
 * (crash, stall) becomes "unknown" — never executed a second time; a pending request whose
 * card or expiry was never queued (Redis failed after the create, issue 9) gets both.
 */
import type { Logger } from '../log.js';
import type { RequestStore } from '../store/requests.js';
import { markUnknown } from './execute.js';
import type { Queues } from './queues.js';

export interface ReconcileDeps {
  store: RequestStore;
  queues: Queues;
  log: Logger;
  now: () => number;
}

/**
 * The submission posts the card within milliseconds; the reconciler steps in only after this,
 * leaving time to withdraw a create whose form had already said "nothing was submitted".
 */
export const CARD_GRACE_MS = 60_000;

export async function reconcile(deps: ReconcileDeps): Promise<void> {
  for (const id of await deps.store.openIds()) {
    const record = await deps.store.get(id);
    if (!record) continue;
    if (record.state === 'approved') {
      await deps.queues.enqueueExecution(id);
    } else if (record.state === 'executing') {
      const state = await deps.queues.execute.getJobState(id);
      if (state !== 'active')
        await markUnknown(
          deps,
          id,
          'the worker running it stopped before the service answered; it may or may not have gone through',
        );
    } else if (record.state === 'pending') {
      // Same job id as the submission's: a no-op while that expiry job exists.
      await deps.queues.scheduleExpiry(id, record.frozen.expiresAt - deps.now());
      if (!record.card && deps.now() - record.frozen.createdAt >= CARD_GRACE_MS) {
        deps.log.warn({ requestId: id }, 'pending request without a card; posting it');
        await deps.queues.notify({ requestId: id, kind: 'card' }, `${id}-card-missing`);
      }
    }
  }
}
