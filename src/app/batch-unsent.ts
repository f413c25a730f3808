/**
 * What a batch's approved-but-unsent rows still need: its queued rows, summed from the sealed row
 * amounts. The batch's funding check and Resume compare the balance with it, and a pause's thread
 * reply says it ("7 rows, 350,000.00 cNGN unsent").
 */
import { type Amount, parseAmount } from '../domain/amount.js';
import type { ApprovalState } from '../domain/approval.js';
import type { RequestRecord } from '../domain/request.js';
import { velocitySubject } from '../domain/velocity.js';
import { batchRowsWithExecutions } from '../store/batch-row-pages.js';
import type { RequestStore } from '../store/requests.js';

/** One batch's unsent rows. */
export interface UnsentRows {
  id: string;
  state: ApprovalState;
  /** Rows still queued (not sent, not cancelled). */
  rows: number;
  need: Amount;
  /** The asset's code as the card shows it (cNGN). */
  code: string;
}

/** The queued rows of one batch and what they need, in its asset's minor units. */
export async function unsentRows(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<UnsentRows | undefined> {
  const subject = velocitySubject(record.sealed);
  if (!subject) return undefined;
  let units = 0n;
  let rows = 0;
  for (const { row, execution } of await batchRowsWithExecutions(store, record)) {
    if (execution?.state !== 'queued') continue;
    units += parseAmount(row.amount, subject.decimals).units;
    rows += 1;
  }
  return {
    id: record.sealed.id,
    state: record.approvalState,
    rows,
    need: { units, decimals: subject.decimals },
    code: record.sealed.display.assetCode ?? subject.code,
  };
}
