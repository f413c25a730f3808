/**
 * What approved-but-unsent batch rows on one wallet and asset still need: each open batch's
 * queued rows, summed from the sealed row amounts. A card shows it beside "available", and a
 * batch's funding check and Resume compare the balance with it, so a single request approved
 * while a batch draws on the same balance is visible before the batch's rows fail.
 */
import { type Amount, formatAmount, parseAmount } from '../domain/amount.js';
import type { ApprovalState } from '../domain/approval.js';
import type { RequestRecord } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import { batchRowsWithExecutions } from '../store/batch-row-pages.js';
import type { RequestStore } from '../store/requests.js';

export type CommitmentStore = Pick<RequestStore, 'openIds' | 'get' | 'batches' | 'executions'>;

/** One batch's unsent rows: "B-1003 still needs 650,000.00 cNGN (running)". */
export interface BatchCommitment {
  id: string;
  state: ApprovalState;
  /** Rows still queued (not sent, not cancelled). */
  rows: number;
  need: Amount;
  /** The asset's code as the card shows it (cNGN). */
  code: string;
}

/** States in which a batch's queued rows will still be sent (after a Resume when paused). */
const COMMITTED: ReadonlySet<ApprovalState> = new Set(['approved', 'running', 'paused']);

const assetOf = (r: RequestRecord): string | undefined => (r.frozen.call.body as { asset?: string }).asset;

/** The queued rows of one batch and what they need, in its asset's minor units. */
export async function unsentRows(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<BatchCommitment | undefined> {
  const subject = velocitySubject(record.frozen);
  if (!subject) return undefined;
  let units = 0n;
  let rows = 0;
  for (const { row, execution } of await batchRowsWithExecutions(store, record)) {
    if (execution?.state !== 'queued') continue;
    units += parseAmount(row.amount, subject.decimals).units;
    rows += 1;
  }
  return {
    id: record.frozen.id,
    state: record.approvalState,
    rows,
    need: { units, decimals: subject.decimals },
    code: record.frozen.display.assetCode ?? subject.code,
  };
}

/**
 * Every open batch paying from `walletId` in `asset` whose unsent rows still need money, oldest
 * id first; `except` leaves one batch out (its own funding check counts its rows itself).
 */
export async function batchCommitments(
  store: CommitmentStore,
  walletId: string,
  asset: string,
  except?: string,
): Promise<BatchCommitment[]> {
  const ids = (await store.openIds()).filter((id) => id.startsWith('B-') && id !== except);
  const out: BatchCommitment[] = [];
  for (const id of ids) {
    const record = await store.get(id);
    if (!record || !COMMITTED.has(record.approvalState) || assetOf(record) !== asset) continue;
    if (velocitySubject(record.frozen)?.walletId !== walletId) continue;
    const c = await unsentRows(store, record);
    if (c && c.rows > 0) out.push(c);
  }
  return out.sort((a, b) => Number(a.id.slice(2)) - Number(b.id.slice(2)));
}

/** "B-1003 still needs 650,000.00 cNGN (running)": the amount like a total, never rounded. */
export const commitmentText = (c: BatchCommitment): string =>
  `${c.id} still needs ${formatAmount(c.need)} ${c.code} (${c.state})`;
