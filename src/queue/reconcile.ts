/**
 * Keeps the records and BullMQ in step after crashes (DESIGN invariant 4), approval by approval
 * and execution by execution (issue 18 §1): an execution whose job is no longer running becomes
 * "unknown" — never executed a second time; an approved approval's queued executions get their
 * next try (a fresh job id); a pending approval whose card or expiry was never queued (Redis failed
 * after the create, issue 9) gets both.
 */
import { continueBatch, isBatch } from '../app/batch-run.js';
import { markUnknown } from '../app/execute-one.js';
import type { Logger } from '../log.js';
import type { RequestStore } from '../store/requests.js';
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
const PAGE = 200;

export async function reconcile(deps: ReconcileDeps): Promise<void> {
  const { store, queues } = deps;
  for (const id of await store.executions.executingIds()) {
    const e = await store.execution(id);
    if (e?.state !== 'executing' || (e.job && (await queues.isRunning(e.job)))) continue;
    await markUnknown(
      { store, jobs: queues, log: deps.log },
      id,
      'the worker running it stopped before the service answered; it may or may not have gone through',
    );
  }
  for (const approvalId of await store.executions.readyIds()) {
    // Issue 20: a batch gets only its first queued row's try (rows run one at a time, in order).
    if (isBatch(approvalId)) {
      await continueBatch({ store, jobs: queues, log: deps.log }, approvalId);
      continue;
    }
    for (let offset = 0; ; offset += PAGE) {
      const page = await store.executions.page(approvalId, offset, PAGE);
      for (const e of page) if (e.state === 'queued') await queues.enqueueTry(e.id, e.tries + 1);
      if (page.length < PAGE) break;
    }
  }
  for (const id of await store.openIds()) {
    const record = await store.get(id);
    if (record?.state !== 'pending') continue;
    // Same job id as the submission's: a no-op while that expiry job exists.
    await queues.scheduleExpiry(id, record.frozen.expiresAt - deps.now());
    if (!record.card && deps.now() - record.frozen.createdAt >= CARD_GRACE_MS) {
      deps.log.warn({ requestId: id }, 'pending request without a card; posting it');
      await queues.notify({ requestId: id, kind: 'card' }, `${id}-card-missing`);
    }
  }
}
