/**
 * A batch as one approval: the facts its card shows, the rows kept
 * beside it for the thread's files, and the summary at the end. Pure.
 */

import { shortAddress } from './address.js';
import { type Amount, amountToString, formatAmount } from './amount.js';
import type { BatchKind } from './batch-cells.js';
import { rowAmount } from './batch-money.js';
import { batchStatusWords } from './batch-status.js';
import { csvLine } from './csv-safe.js';
import type { RowRepeat } from './repeats.js';
import type { RequestRecord } from './request.js';

/** What the card shows of a batch (kept in the sealed request's display). */
export interface BatchFacts {
  kind: BatchKind;
  fileName: string;
  rows: number;
  /** Exact amounts as text ("1250.5"), in the asset's code. */
  total: string;
  largest: { row: number; amount: string };
  availableNow: string;
  availableAfter: string;
  fileFingerprint: string;
  /** The first rows, one line each ("row 2 · 0x99ED…EdcF · 250 · INV-118"). */
  preview: string[];
  /** Rows whose address looks like a known one (first 6 and last 4 alike): both full addresses. */
  lookalikes?: { row: number; address: string; of: string; ofAddress: string }[];
  /** Warnings with row numbers: destinations Rampart never paid. */
  newDestinations?: number[];
  /** Rows repeating an earlier row of this file: same destination and amount. */
  repeatsInFile?: { row: number; of: number }[];
  /** Rows repeating an earlier payment within BATCH_REPEAT_WINDOW, unknown first. */
  repeats?: RowRepeat[];
  /** How many rows repeat an earlier payment when more than `repeats` keeps. */
  repeatedRows?: number;
  /** The same fileFingerprint submitted in the last 30 days (denied and expired included). */
  sameFile?: { id: string; state: string; at: number }[];
}

/** One row as kept for the rows file and the receipt (the reference is never sent). */
export interface BatchRowRecord {
  row: number;
  destination: string;
  /** The beneficiary as written in the file when it was a label. */
  written?: string;
  amount: string;
  reference?: string;
}

/** How many rows the card previews (Slack's block text limits keep a card readable). */
export const PREVIEW_ROWS = 10;

/** One short form everywhere people read an address: first 6, last 4. */
const shortDestination = shortAddress;

/** `asset`: the batch's asset id, so each amount reads like the total (domain/batch-money.ts). */
export function previewLines(rows: readonly BatchRowRecord[], code: string, asset = ''): string[] {
  return rows
    .slice(0, PREVIEW_ROWS)
    .map(
      (r) =>
        `row ${r.row} · ${shortDestination(r.destination)}${r.written ? ` (${r.written})` : ''} · ${rowAmount(r.amount, asset)} ${code}${r.reference ? ` · ${r.reference}` : ''}`,
    );
}

/** The rows file uploaded in the card's thread: exactly what was approved, one line per row. */
export function rowsCsv(rows: readonly BatchRowRecord[]): string {
  const lines = [csvLine(['row', 'destination', 'amount', 'reference'])];
  for (const r of rows) lines.push(csvLine([String(r.row), r.destination, r.amount, r.reference ?? '']));
  return `${lines.join('\r\n')}\r\n`;
}

export const amountText = (a: Amount): string => amountToString(a);

/**
 * The summary posted at the end, mentioning the requester: the batch's status words (an unknown
 * row first, "Partly paid: 10 of 20 (…)", domain/batch-status.ts) and the total moved.
 */
export function batchSummaryText(record: RequestRecord, moved: Amount): string {
  const f = record.sealed;
  const status = batchStatusWords(record, moved) ?? '';
  const unknown =
    record.counts.unknown > 0
      ? ' Rows whose outcome is unknown may have been paid: check them with the service and record what you find before paying them again.'
      : '';
  return `<@${f.requester}> Batch ${f.id} finished. ${status}. Total moved: ${formatAmount(moved)} ${f.display.assetCode ?? ''}.${unknown} The receipt is attached.`;
}

/**
 * Rows that repeat an earlier row of the same file: the same destination key (`keyOf`,
 * domain/destination-key.ts: an EVM address in any case is one, a Solana address only exactly)
 * and amount.
 */
export function repeatsInFile(
  rows: readonly BatchRowRecord[],
  keyOf: (destination: string) => string,
): { row: number; of: number }[] {
  const first = new Map<string, number>();
  const out: { row: number; of: number }[] = [];
  for (const r of rows) {
    const key = `${keyOf(r.destination)} ${r.amount}`;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, r.row);
    else out.push({ row: r.row, of: seen });
  }
  return out;
}

/** "rows 2, 5 and 7", at most `max` numbers named. */
export function rowList(rows: readonly number[], max = 15): string {
  const named = rows.slice(0, max).map(String);
  const more = rows.length - named.length;
  if (more > 0) return `rows ${named.join(', ')} and ${more} more`;
  if (named.length === 1) return `row ${named[0]}`;
  return `rows ${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}
