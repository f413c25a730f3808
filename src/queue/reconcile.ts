/**
 * Keeps the record and BullMQ in step after crashes (DESIGN invariant 4): an approved request
 * with no live job is queued again; an executing request whose job is no longer running
 * (crash, stall) becomes "unknown" — never executed a second time.
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
    } else if (record.state === 'pending' && record.frozen.expiresAt <= deps.now()) {
      await deps.queues.scheduleExpiry(id, 0);
    }
  }
}
