/**
 * The receipt CSV of a batch: one line per row with what happened to it.
 * Pure. An offramp that succeeded is written `initiated`: the service only initiates a payout
 * (spec 4.3), so "succeeded" would claim more than anyone knows.
 */

import { type Amount, amountToString } from './amount.js';
import type { BatchKind } from './batch-cells.js';
import { csvLine } from './csv-safe.js';

export const RECEIPT_COLUMNS = [
  'row',
  'destination',
  'amount',
  'reference',
  'state',
  'hash or reference',
  'error',
] as const;

export type ReceiptState = 'queued' | 'executing' | 'succeeded' | 'failed' | 'unknown' | 'cancelled';

export interface ReceiptRow {
  row: number;
  destination: string;
  amount: Amount;
  /** Rampart's own reference from the file (never sent to the service). */
  reference: string | undefined;
  state: ReceiptState;
  /** A transfer's transaction hash, or the service's reference for an offramp. */
  proof: string | undefined;
  error: string | undefined;
}

const stateShown = (kind: BatchKind, state: ReceiptState): string =>
  kind === 'offramps' && state === 'succeeded' ? 'initiated' : state;

export function receiptCsv(kind: BatchKind, rows: readonly ReceiptRow[]): string {
  const lines = [RECEIPT_COLUMNS.join(',')];
  for (const r of rows) {
    const cells = [
      String(r.row),
      r.destination,
      amountToString(r.amount),
      r.reference ?? '',
      stateShown(kind, r.state),
      r.proof ?? '',
      r.error ?? '',
    ];
    // Every CSV Rampart writes guards formula cells the same way (domain/csv-safe.ts).
    lines.push(csvLine(cells));
  }
  return `${lines.join('\r\n')}\r\n`;
}
