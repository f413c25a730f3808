/**
 * A batch's status in words, the same wherever it is shown (the notification text, the card, App
 * Home, the report): "Paused: …" while paused, and at the end what moved — "Partly paid: 10 of
 * 20 (500,000.00 cNGN), 3 failed, 7 cancelled" — never "Failed" for a batch that moved money.
 * An unknown row leads, because it is the one thing someone must check before anything else. Pure.
 */
import { type Amount, formatAmount } from './amount.js';
import type { RequestRecord } from './request.js';
import { isBatchRecord } from './request.js';
import { plural } from './words.js';

/** Why a batch is paused, for the advice that goes with it. */
export type PauseKind = 'unknown' | 'funding' | 'failures' | 'redis' | 'other';

/**
 * The row a person sees for execution `B-1003.k`: a file's header is its row 1, so execution k
 * is file row k + 1 (empty rows are refused, domain/batch-file.ts); the HTTP API's rows are
 * numbered from 1, so there it is row k.
 */
export const rowOf = (record: RequestRecord, executionId: string): number =>
  Number(executionId.slice(executionId.lastIndexOf('.') + 1)) + (record.sealed.display.viaApi ? 0 : 1);

/**
 * The execution a person's row number names (`B-1003 row 2` is `B-1003.1` for a file's batch):
 * the inverse of rowOf; undefined when the batch has no such row.
 */
export function executionOfRow(record: RequestRecord, row: number): string | undefined {
  const n = row - (record.sealed.display.viaApi ? 0 : 1);
  return Number.isInteger(n) && n >= 1 && n <= record.executionCount ? `${record.sealed.id}.${n}` : undefined;
}

/**
 * How people read an execution, the same on the card, in the thread, App Home, the report, the
 * receipt and the Record outcome form: "B-1003 row 2" for a batch's row (the row of its file),
 * the execution id itself ("R-1002.1") for a single request's one execution.
 */
export const executionName = (record: RequestRecord, executionId: string): string =>
  isBatchRecord(record) ? `${record.sealed.id} row ${rowOf(record, executionId)}` : executionId;

/** Rows (of the record's first page of executions) in one state, in row order. */
export const rowsIn = (record: RequestRecord, state: RequestRecord['executions'][number]['state']): number[] =>
  record.executions
    .filter((e) => e.state === state)
    .map((e) => rowOf(record, e.id))
    .sort((a, b) => a - b);

/** The reasons are written by the store's scripts and the funding check (their own words). */
export function pauseKind(record: RequestRecord): PauseKind {
  if (record.counts.unknown > 0) return 'unknown';
  const why = record.pauseReason ?? '';
  if (/ holds .* need/.test(why)) return 'funding';
  if (/rows? in a row failed/.test(why)) return 'failures';
  if (/Redis replica/.test(why)) return 'redis';
  return 'other';
}

/** "row 7" or "rows 7, 8 and 9" (at most `max` named). */
export function rowWords(rows: readonly number[], max = 10): string {
  const named = rows.slice(0, max).map(String);
  const more = rows.length - named.length;
  if (named.length === 1) return `row ${named[0]}`;
  const list =
    more > 0 ? `${named.join(', ')} and ${more} more` : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `rows ${list}`;
}

/**
 * "Partly paid: 10 of 20 (500,000.00 cNGN), 3 failed, 7 cancelled". `moved` is the sum of the
 * succeeded rows' sealed amounts (the record's own once app/batch-moved.ts has read it); without
 * it the count stands alone.
 */
export function outcomeWords(record: RequestRecord, moved: Amount | undefined = record.moved): string {
  const c = record.counts;
  const n = record.executionCount;
  const offramps = record.sealed.display.batch?.kind === 'offramps';
  // An offramp that succeeded is initiated: the service only initiates a payout (spec 4.3).
  const paid = offramps ? 'initiated' : 'paid';
  const code = record.sealed.display.assetCode ?? '';
  const money = moved ? ` (${formatAmount(moved)} ${code})` : '';
  const rest = [
    ...(c.failed > 0 ? [`${c.failed} failed`] : []),
    ...(c.cancelled > 0 ? [`${c.cancelled} cancelled`] : []),
  ];
  const tail = rest.length > 0 ? `, ${rest.join(', ')}` : '';
  let head: string;
  if (c.succeeded === n) head = `${offramps ? 'Initiated' : 'Paid'}: all ${n}${money}`;
  else if (c.succeeded > 0) head = `Partly ${paid}: ${c.succeeded} of ${n}${money}`;
  else if (c.failed > 0) return `Failed: none of ${n} ${paid}${tail}`;
  else if (c.unknown > 0) return `none of ${n} known ${paid}${tail}`;
  else return `Stopped: none of ${n} ${paid}${tail}`;
  return `${head}${tail}`;
}

/** An unknown row leads: "OUTCOME UNKNOWN: row 7 · partly paid: 10 of 20 …". */
function withUnknownFirst(record: RequestRecord, words: string): string {
  if (record.counts.unknown === 0) return words;
  const rows = rowsIn(record, 'unknown');
  const which = rows.length > 0 ? rowWords(rows) : plural(record.counts.unknown, 'row', 'rows');
  return `OUTCOME UNKNOWN: ${which} · ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}

/** "13 of 20 rows run". */
const ranWords = (record: RequestRecord): string => {
  const c = record.counts;
  return `${c.succeeded + c.failed + c.unknown} of ${record.executionCount} rows run`;
};

/** The short reason a batch is paused: "3 rows in a row failed", "ops holds 0.00 cNGN; …". */
export function pausedWhy(record: RequestRecord): string {
  if (pauseKind(record) === 'unknown') return `${rowWords(rowsIn(record, 'unknown'))} outcome unknown`;
  const why = (record.pauseReason ?? 'paused by Rampart').split(/; (check|fund)/)[0] ?? '';
  return why.replace(/ — fund it and resume, or stop$/, '');
}

/**
 * The batch's status in words, or undefined for a single request or before approval (a pending batch reads as any
 * request does). The same text on the card, in the notification text, App Home and the report.
 */
export function batchStatusWords(record: RequestRecord, moved: Amount | undefined = record.moved): string | undefined {
  if (!isBatchRecord(record)) return undefined;
  switch (record.approvalState) {
    case 'approved':
    case 'running':
      return withUnknownFirst(record, `Running: ${ranWords(record)}`);
    case 'paused':
      // An unknown row already leads; the reason would only repeat it.
      return record.counts.unknown > 0
        ? withUnknownFirst(record, `Paused (${ranWords(record)})`)
        : `Paused: ${pausedWhy(record)} (${ranWords(record)})`;
    case 'stopping':
      return withUnknownFirst(record, `Stopping: unsent rows are being cancelled (${ranWords(record)})`);
    case 'done':
      return withUnknownFirst(record, outcomeWords(record, moved));
    default:
      return undefined;
  }
}
