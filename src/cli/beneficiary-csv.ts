/**
 * Reads a beneficiaries file for `rampart beneficiaries import` (issue 11): UTF-8, a header row
 * naming the columns, one beneficiary per row. Parsed by csv-parse (quotes, commas in values,
 * CRLF, a BOM), never by splitting on commas. Every problem is kept with its line number.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { StatedRow } from '../app/register-beneficiaries.js';
import { STATED_FIELDS, type StatedInput } from '../domain/beneficiary-registration.js';
import { maskLongNumbers } from '../domain/personal-data.js';

export const CSV_COLUMNS = STATED_FIELDS;
/** One approval card (and one Redis script) per file; bigger files are split by the operator. */
export const MAX_ROWS = 1_000;

export interface LineProblem {
  line: number;
  message: string;
}
/** The rows that could be read, and every problem found so far (the rows are checked further). */
export interface CsvRead {
  rows: StatedRow[];
  problems: LineProblem[];
}

const parsedRecords = z.array(z.object({ record: z.array(z.string()), info: z.object({ lines: z.number() }) }));

export function readBeneficiaryCsv(bytes: Uint8Array): CsvRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return problem(0, 'The file is not UTF-8 text; save it as "CSV UTF-8" and try again.');
  }
  let records: z.infer<typeof parsedRecords>;
  try {
    records = parsedRecords.parse(
      parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }),
    );
  } catch (err) {
    if (err instanceof CsvError) {
      const lines = (err as { lines?: unknown }).lines;
      return problem(
        typeof lines === 'number' ? lines : 0,
        `The CSV cannot be read here: ${maskLongNumbers(err.message)}.`,
      );
    }
    throw err;
  }
  const [head, ...body] = records;
  if (!head) return problem(0, `The file is empty; its first line names the columns: ${CSV_COLUMNS.join(',')}.`);
  const header = head.record.map((h) => h.trim().toLowerCase());
  const problems: LineProblem[] = [];
  for (const column of CSV_COLUMNS)
    if (!header.includes(column)) problems.push({ line: 1, message: `The header has no column ${column}.` });
  header.forEach((h, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(h))
      problems.push({
        line: 1,
        message: `The header's column ${i + 1} "${maskLongNumbers(h)}" is not one of ${CSV_COLUMNS.join(', ')}.`,
      });
    else if (header.indexOf(h) !== i) problems.push({ line: 1, message: `The header names ${h} twice.` });
  });
  if (problems.length > 0) return { rows: [], problems };
  if (body.length === 0) return problem(1, 'The file has a header but no rows; nothing to import.');
  if (body.length > MAX_ROWS)
    return problem(0, `The file has ${body.length} rows; import at most ${MAX_ROWS} at a time (split the file).`);
  const rows: StatedRow[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    if (record.length !== header.length) {
      const missing = header.slice(record.length).join(', ');
      problems.push({
        line,
        message:
          record.length < header.length
            ? `Line ${line} has ${record.length} values but the header has ${header.length}: missing ${missing}.`
            : `Line ${line} has ${record.length} values but the header has ${header.length}; quote values that hold a comma.`,
      });
      continue;
    }
    const input = Object.fromEntries(CSV_COLUMNS.map((c) => [c, record[header.indexOf(c)] ?? ''])) as StatedInput;
    rows.push({ line, input });
  }
  return { rows, problems };
}

const problem = (line: number, message: string): CsvRead => ({ rows: [], problems: [{ line, message }] });
