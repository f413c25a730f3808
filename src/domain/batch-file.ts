/**
 * A batch file as uploaded: UTF-8 (a BOM is fine), a header row naming the columns in
 * any order, one payment per row. Parsed by csv-parse, never by splitting on commas. Pure.
 *
 * Rows are numbered as a spreadsheet shows them: the header is row 1, the first payment row 2,
 * so "row 7" is the row a person sees as 7 when they open the file to fix it.
 */
import { CsvError, parse } from 'csv-parse/sync';
import type { Amount } from './amount.js';
import type { Asset } from './assets.js';
import {
  amountCellProblem,
  BATCH_COLUMNS,
  type BatchKind,
  DESTINATION_COLUMN,
  destinationCellProblem,
  isFormulaCell,
  REQUIRED_COLUMNS,
  referenceCellProblem,
} from './batch-cells.js';
import { maskLongNumbers } from './personal-data.js';
import { batchRowsRule } from './rules/submissions.js';

/** 1 MB as people mean it in a file picker: 1,048,576 bytes. */
export const MAX_BATCH_FILE_BYTES = 1_048_576;

export interface RowError {
  row: number;
  column?: string;
  /** A whole sentence: "Row 7 amount: …". */
  message: string;
}

export interface BatchRow {
  row: number;
  /** The receiver address, or the beneficiary id or label as typed (resolved by app/check-batch). */
  destination: string;
  amount: Amount;
  reference: string | undefined;
}

export type BatchFileRead =
  /** `rows`: those that read cleanly, so later checks can report on them too (every error at once). */
  | { kind: 'invalid'; fileErrors: string[]; rowErrors: RowError[]; rows: BatchRow[] }
  | { kind: 'read'; rows: BatchRow[] };

export interface BatchFileOptions {
  kind: BatchKind;
  asset: Asset;
  maxRows: number;
}

const fileError = (message: string): BatchFileRead => ({
  kind: 'invalid',
  fileErrors: [message],
  rowErrors: [],
  rows: [],
});
const columnsText = (kind: BatchKind) => `${REQUIRED_COLUMNS[kind].join(',')} (and optionally reference)`;

/** Text that is not a CSV: NUL bytes, or control characters (besides tab, CR, LF, FF) a text file does not hold. */
const isBinaryText = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) return true;
  }
  return false;
};

function decode(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return isBinaryText(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

function readRecords(text: string): string[][] | string {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch (err) {
    if (err instanceof CsvError)
      return `The file is not valid CSV near line ${String((err as { lines?: unknown }).lines ?? '?')} (${err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quote is opened and never closed' : 'a quote is misplaced'}); fix it and upload again.`;
    throw err;
  }
}

const isEmpty = (record: readonly string[]) => record.every((v) => v.trim() === '');

function headerProblems(kind: BatchKind, header: readonly string[]): string[] {
  const names = header.map((h) => h.trim().toLowerCase());
  const allowed = BATCH_COLUMNS[kind];
  const problems: string[] = [];
  const unknown = names.filter((n) => !allowed.includes(n));
  const missing = REQUIRED_COLUMNS[kind].filter((c) => !names.includes(c));
  const other: BatchKind = kind === 'transfers' ? 'offramps' : 'transfers';
  if (names.includes(DESTINATION_COLUMN[other]) && !names.includes(DESTINATION_COLUMN[kind]))
    return [
      `This is an ${other} file (it has a ${DESTINATION_COLUMN[other]} column); choose ${other} in the form, or upload a ${kind} file with ${columnsText(kind)}.`,
    ];
  if (missing.length === REQUIRED_COLUMNS[kind].length)
    return [`The first row must name the columns: ${columnsText(kind)}; this file's first row does not.`];
  for (const u of unknown)
    problems.push(
      u === ''
        ? 'The header has an empty column name; remove the empty column.'
        : `The header names an unknown column "${u.slice(0, 40)}"; a ${kind} file has only ${columnsText(kind)}.`,
    );
  for (const m of missing) problems.push(`The header has no ${m} column; a ${kind} file needs ${columnsText(kind)}.`);
  for (const n of new Set(names))
    if (n !== '' && names.indexOf(n) !== names.lastIndexOf(n))
      problems.push(`The header names ${n} twice; keep one ${n} column.`);
  return problems;
}

export function readBatchFile(bytes: Uint8Array, options: BatchFileOptions): BatchFileRead {
  const { kind, asset, maxRows } = options;
  if (bytes.byteLength > MAX_BATCH_FILE_BYTES)
    return fileError(
      `The file is ${(bytes.byteLength / 1_048_576).toFixed(1)} MB; a batch file may be at most 1 MB, so split it.`,
    );
  const text = decode(bytes);
  if (text === undefined)
    return fileError('The file is not a UTF-8 text CSV (it looks binary); export it as "CSV UTF-8" and upload again.');
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.includes(';') && !firstLine.includes(','))
    return fileError('The file is separated by semicolons; export it with commas as the separator ("CSV UTF-8").');
  const records = readRecords(text);
  if (typeof records === 'string') return fileError(records);
  const [header, ...body] = records;
  if (!header || isEmpty(header))
    return fileError(`The file is empty; its first row names the columns: ${columnsText(kind)}.`);
  const problems = headerProblems(kind, header);
  if (problems.length > 0) return { kind: 'invalid', fileErrors: problems, rowErrors: [], rows: [] };
  // Trailing empty rows are what editors leave; empty rows between payments are refused below.
  let end = body.length;
  while (end > 0 && isEmpty(body[end - 1] ?? [])) end--;
  const data = body.slice(0, end);
  if (data.length === 0) return fileError('The file has a header but no payments.');
  if (!batchRowsRule(data.length, maxRows).ok)
    return fileError(`The file has ${data.length} payments; a batch may have at most ${maxRows}, so split it.`);
  return readRows(kind, asset, header, data, 2);
}

/** One row that arrived already split into its cells (the HTTP API's JSON rows). */
export interface BatchCells {
  destination: string;
  amount: string;
  reference?: string | undefined;
}

/**
 * Rows that arrived as cells rather than a file (the API's POST /batches): the same cell rules
 * and the same sentences as a file's rows. They are numbered from 1 (row k becomes execution
 * B-n.k); the caller's JSON pointer is /rows/(k-1).
 */
export function readBatchCells(cells: readonly BatchCells[], options: BatchFileOptions): BatchFileRead {
  const { kind, asset, maxRows } = options;
  if (cells.length === 0) return fileError('The batch has no rows; send at least one payment.');
  if (!batchRowsRule(cells.length, maxRows).ok)
    return fileError(`The batch has ${cells.length} rows; a batch may have at most ${maxRows}, so split it.`);
  const header = [DESTINATION_COLUMN[kind], 'amount', 'reference'];
  return readRows(
    kind,
    asset,
    header,
    cells.map((c) => [c.destination, c.amount, c.reference ?? '']),
    1,
  );
}

function readRows(
  kind: BatchKind,
  asset: Asset,
  header: readonly string[],
  data: string[][],
  firstRow: number,
): BatchFileRead {
  const names = header.map((h) => h.trim().toLowerCase());
  const at = (record: readonly string[], column: string) => {
    const i = names.indexOf(column);
    return i === -1 ? undefined : record[i];
  };
  const rows: BatchRow[] = [];
  const rowErrors: RowError[] = [];
  const destinationColumn = DESTINATION_COLUMN[kind];
  data.forEach((record, i) => {
    const row = i + firstRow;
    const put = (column: string | undefined, problem: string): void => {
      rowErrors.push({
        row,
        ...(column ? { column } : {}),
        message: `Row ${row}${column ? ` ${column}` : ''}: ${problem}`,
      });
    };
    if (isEmpty(record)) {
      put(undefined, 'the row is empty; remove empty rows between payments.');
      return;
    }
    if (record.length !== names.length) {
      put(
        undefined,
        `it has ${record.length} values but the header has ${names.length}; quote any value that holds a comma.`,
      );
      return;
    }
    const before = rowErrors.length;
    names.forEach((column, c) => {
      const value = record[c] ?? '';
      // An amount gets its own sentence for "-1" and negatives; everything else is refused here.
      if (column !== 'amount' && isFormulaCell(value))
        put(
          column,
          `"${maskLongNumbers(value.trim().slice(0, 20))}" starts like a spreadsheet formula (= + - @); remove that character.`,
        );
    });
    const destination = (at(record, destinationColumn) ?? '').trim();
    const referenceText = at(record, 'reference') ?? '';
    if (!isFormulaCell(at(record, destinationColumn) ?? '')) {
      const problem = destinationCellProblem(kind, destination, asset);
      if (problem) put(destinationColumn, problem);
    }
    const amount = amountCellProblem(at(record, 'amount') ?? '', asset);
    if ('problem' in amount) put('amount', amount.problem);
    const referenceProblem = referenceCellProblem(referenceText);
    if (referenceProblem) put('reference', referenceProblem);
    if (rowErrors.length > before || !('amount' in amount)) return;
    const reference = referenceText.trim();
    rows.push({ row, destination, amount: amount.amount, reference: reference === '' ? undefined : reference });
  });
  return rowErrors.length > 0 ? { kind: 'invalid', fileErrors: [], rowErrors, rows } : { kind: 'read', rows };
}
