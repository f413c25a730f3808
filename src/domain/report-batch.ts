/** A batch's rows as the report's payments, pure. */
import { parseAmount } from './amount.js';
import type { ExecutionState } from './approval.js';
import { assetInfo } from './assets.js';
import type { BatchRowRecord } from './batch-approval.js';
import { PAID_BENEFICIARIES, paidAs } from './destination-key.js';
import type { Payment } from './report.js';
import type { RequestRecord } from './request.js';

/** One row of a batch as the store holds it: the approved row, its execution's state and when it got there. */
export interface BatchRowFacts {
  row: BatchRowRecord;
  executionId: string;
  state: ExecutionState;
  /** When the execution reached its state (its last history entry); undefined: not started. */
  at: number | undefined;
}

/**
 * A batch's rows as payments: each with its own amount, destination, state and time,
 * in the asset and kind of the batch. The batch's one approval is counted once, on its first row.
 */
export function batchPayments(record: RequestRecord, rows: readonly BatchRowFacts[]): Payment[] {
  const { call, display, createdAt } = record.sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return [];
  const asset = assetInfo(call.body.asset);
  const approvalMs =
    record.decidedAt !== undefined && record.votes.length > 0 ? record.decidedAt - createdAt : undefined;
  return rows.map((r, i) => ({
    id: r.executionId,
    name: `${record.sealed.id} row ${r.row.row}`,
    ...(record.approvalState === 'paused' ? { batchPaused: true } : {}),
    kind: call.kind as 'transfer' | 'offramp',
    state: r.state,
    wallet: display.walletAlias ?? call.body.wallet_id,
    code: asset.code.toUpperCase(),
    units: parseAmount(r.row.amount, asset.decimals).units,
    decimals: asset.decimals,
    destination: r.row.destination,
    paidAs: paidAs(call.kind === 'transfer' ? asset.chain : PAID_BENEFICIARIES, r.row.destination),
    at: r.at ?? record.decidedAt ?? createdAt,
    approvalMs: i === 0 ? approvalMs : undefined,
  }));
}
