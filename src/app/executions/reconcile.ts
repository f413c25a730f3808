/**
 * Keeps the records and BullMQ in step after crashes (DESIGN invariant 4), approval by approval
 * and execution by execution: an execution whose job is no longer running becomes
 * "unknown" — never executed a second time; an approved approval's queued executions get their
 * next try (a fresh job id); a pending approval whose card or expiry was never queued (Redis failed
 * after the create) gets both.
 */

import { isBatchRecord, type RequestRecord } from '../../domain/request.js';
import type { Logger } from '../../log.js';
import type { ControlStore } from '../../store/controls.js';
import type { RequestStore } from '../../store/requests.js';
import { cancelUnsent, continueBatch } from '../batch-run.js';
import { markUnknown } from '../execute-one.js';
import type { ApprovalJobs } from '../ports.js';

export interface ReconcileDeps {
  store: RequestStore;
  queues: Pick<ApprovalJobs, 'notify' | 'enqueueTry' | 'isRunning' | 'scheduleExpiry'>;
  log: Logger;
  now: () => number;
  /** What an execution settled `unknown` here needs for its velocity reservation (markUnknown). */
  controls?: ControlStore;
  /** BATCH_HOLD_LIMIT (undefined: no limit). */
  holdLimitMs?: number;
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
      { store, jobs: queues, log: deps.log, ...(deps.controls ? { controls: deps.controls } : {}) },
      id,
      'the worker running it stopped before the service answered; it may or may not have gone through',
    );
  }
  const redisNow = await store.redisNow();
  for (const approvalId of await store.executions.readyIds()) {
    // Waiting for its runAt (a cancel window or a set time): its delayed try wakes it then; a
    // fresh try now would only be refused 'not-yet' and pile up beside it.
    const record = await store.get(approvalId);
    if ((record?.runAt ?? 0) > redisNow) continue;
    // A batch gets only its first queued row's try (rows run one at a time, in order).
    if (record && isBatchRecord(record)) {
      if (await cancelTooOld(deps, record, redisNow)) continue;
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
    await queues.scheduleExpiry(id, record.sealed.expiresAt - deps.now());
    if (!record.card && deps.now() - record.sealed.createdAt >= CARD_GRACE_MS) {
      deps.log.warn({ requestId: id }, 'pending request without a card; posting it');
      await queues.notify({ requestId: id, kind: 'card' }, `${id}-card-missing`);
    }
  }
}

/**
 * BATCH_HOLD_LIMIT: a batch not started, paused or frozen that long after its approval
 * has its unsent rows cancelled ("approval too old"), each giving its velocity back once (in the
 * cancelling script). Its start script refuses them meanwhile, so this only tidies up. Judged on
 * Redis's clock (`redisNow`), as the start script judges it: a worker whose clock runs ahead never
 * cancels rows the start would still let run, nor one behind keeps rows the start refuses.
 */
async function cancelTooOld(deps: ReconcileDeps, record: RequestRecord, redisNow: number): Promise<boolean> {
  if (deps.holdLimitMs === undefined) return false;
  const approvalId = record.sealed.id;
  // Counted from runAt when the batch waited for one (as the start script counts it).
  const from = Math.max(record.decidedAt ?? 0, record.runAt ?? 0);
  if (!record.decidedAt || redisNow - from <= deps.holdLimitMs) return false;
  if (record.counts.executing > 0 || record.counts.queued === 0) return false;
  const n = await cancelUnsent({ ...deps, jobs: deps.queues }, approvalId, {
    event: 'cancelled',
    detail: 'approval too old: BATCH_HOLD_LIMIT passed before these rows could start',
  });
  if (n > 0) {
    deps.log.warn({ requestId: approvalId, cancelled: n }, 'batch rows cancelled: approval too old');
    await deps.queues.notify({ requestId: approvalId, kind: 'card' });
  }
  return true;
}
