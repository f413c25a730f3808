/**
 * Running a batch (issue 20): its rows one at a time, as a chain of jobs — each row's end queues
 * the next row's try (a fresh job id, domain/approval.ts tryJobId); resume and the reconciler
 * queue the first row still queued. These only make a row TRY: whether it starts is decided in
 * its start script (store/approval-lua.ts START: approval runnable, not paused or stopping, no
 * other row of the batch executing, the row before it final, not frozen).
 */
import { type Amount, parseAmount } from '../domain/amount.js';
import { executionId, parseExecutionId, RUNNABLE_APPROVAL_STATES } from '../domain/approval.js';
import { assetInfo, parseAssetId } from '../domain/assets.js';
import { velocitySubject } from '../domain/velocity.js';
import type { Logger } from '../log.js';
import type { ControlStore } from '../store/controls.js';
import type { RequestStore } from '../store/requests.js';
import type { JobQueue } from './ports.js';

export interface BatchRunDeps {
  store: RequestStore;
  jobs: Pick<JobQueue, 'enqueueTry'>;
  log: Logger;
}

const PAGE = 200;
export const isBatch = (approvalOrExecutionId: string): boolean => approvalOrExecutionId.startsWith('B-');

/** After row `n` ended: the next row's try, if the batch may still run. */
export async function continueAfter(deps: BatchRunDeps, finishedExecutionId: string): Promise<void> {
  const parsed = parseExecutionId(finishedExecutionId);
  if (!parsed || !isBatch(parsed.approvalId)) return;
  const next = await deps.store.execution(executionId(parsed.approvalId, parsed.n + 1));
  if (next?.state !== 'queued') return;
  if (!(await runnable(deps.store, parsed.approvalId))) return;
  await deps.jobs.enqueueTry(next.id, next.tries + 1);
}

/** The first queued row's try (at resume and from the reconciler), unless a row is executing. */
export async function continueBatch(deps: BatchRunDeps, approvalId: string): Promise<void> {
  const record = await deps.store.get(approvalId);
  if (!record || !RUNNABLE_APPROVAL_STATES.has(record.approvalState) || record.counts.executing > 0) return;
  for (let offset = 0; offset < record.executionCount; offset += PAGE) {
    const page = await deps.store.executions.page(approvalId, offset, PAGE, record.executionCount);
    const first = page.find((e) => e.state === 'queued');
    if (first) return deps.jobs.enqueueTry(first.id, first.tries + 1);
  }
}

async function runnable(store: RequestStore, approvalId: string): Promise<boolean> {
  const record = await store.get(approvalId);
  return record !== undefined && RUNNABLE_APPROVAL_STATES.has(record.approvalState);
}

/**
 * Issue 20 "Velocity": the approval reserved the batch's TOTAL at quorum (the ledger is per
 * approval); a row ending failed or cancelled gives back exactly its own amount, once.
 */
export async function giveBackRows(
  deps: { store: RequestStore; controls?: ControlStore | undefined; log: Logger },
  approvalId: string,
  executionIds: readonly string[],
): Promise<void> {
  if (!deps.controls || executionIds.length === 0) return;
  const record = await deps.store.get(approvalId);
  const subject = record ? velocitySubject(record.frozen) : undefined;
  if (!record || !subject) return;
  const rows = await deps.store.batches.rows(approvalId);
  const body = record.frozen.call.body as { asset?: string };
  const asset = body.asset ? parseAssetId(body.asset) : undefined;
  if (!asset) return;
  const decimals = assetInfo(asset).decimals;
  const amountsKey = deps.controls.amountsKey(subject);
  for (const id of executionIds) {
    const n = parseExecutionId(id)?.n ?? 0;
    const row = rows[n - 1];
    if (!row) continue;
    const units: Amount = parseAmount(row.amount, decimals);
    if (await deps.store.batches.giveBack(amountsKey, approvalId, id, units.units))
      deps.log.info({ executionId: id }, 'a batch row gave its velocity reservation back');
  }
}
