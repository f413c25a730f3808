/**
 * Reads a beneficiaries file for `rampart beneficiaries import`: UTF-8, a header row
 * naming the columns, one beneficiary per row. Parsed by csv-parse (quotes, commas in values,
 * CRLF, a BOM), never by splitting on commas. Every problem is kept with its line number.
 * The file is streamed, and reading stops at the first row past MAX_ROWS (or a row
 * past MAX_ROW_BYTES), so a huge file is refused without being read whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { z } from 'zod';
import type { StatedRow } from '../../app/register-beneficiaries.js';
import { STATED_FIELDS, type StatedInput } from '../../domain/beneficiary-registration.js';
import { maskLongNumbers } from '../../domain/personal-data.js';

export const CSV_COLUMNS = STATED_FIELDS;
/** One approval card (and one Redis script) per file; bigger files are split by the operator. */
export const MAX_ROWS = 1_000;
/** A beneficiary row is a few dozen bytes; a longer one is not a beneficiary. */
export const MAX_ROW_BYTES = 16 * 1024;
/** Blank lines are skipped, so rows alone do not bound a file: this does. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export interface LineProblem {
  line: number;
  message: string;
}
/** The rows that could be read, and every problem found so far (the rows are checked further). */
export interface CsvRead {
  rows: StatedRow[];
  problems: LineProblem[];
  /** SHA-256 of the bytes read (the whole file when it was read to its end). */
  sha256?: string;
  /** How many bytes were read before stopping. */
  bytesRead?: number;
}

const parsedRecord = z.object({ record: z.array(z.string()), info: z.object({ lines: z.number() }) });
type Parsed = z.infer<typeof parsedRecord>;

const TOO_BIG = `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, far more than ${MAX_ROWS} beneficiaries take; split it, or remove what is not a beneficiary row.`;
const NOT_UTF8 = 'The file is not UTF-8 text; save it as "CSV UTF-8" and try again.';
/** Header, MAX_ROWS rows, and one more: enough to know the file is too long. */
const ENOUGH = MAX_ROWS + 2;

type Counted = { bytes: number; hash: ReturnType<typeof createHash> };

/** The file's first ENOUGH records; reading stops there (the source is closed by the break). */
async function readRecords(source: AsyncIterable<Uint8Array>, counted: Counted): Promise<Parsed[] | CsvRead> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_ROW_BYTES,
  });
  const records: Parsed[] = [];
  parser.on('data', (r: unknown) => records.push(parsedRecord.parse(r)));
  parser.on('error', () => {}); // reported through the write callback or `finished`
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => parser.write(text, (err) => (err ? reject(err) : setImmediate(resolve))));
  try {
    let text: string;
    for await (const chunk of source) {
      counted.bytes += chunk.length;
      counted.hash.update(chunk);
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return problem(0, NOT_UTF8);
      }
      await write(text);
      if (records.length >= ENOUGH) return records.slice(0, ENOUGH);
      if (counted.bytes > MAX_FILE_BYTES) return problem(0, TOO_BIG);
    }
    try {
      text = decoder.decode();
    } catch {
      return problem(0, NOT_UTF8);
    }
    parser.end(text);
    await finished(parser);
    return records.slice(0, ENOUGH);
  } catch (err) {
    if (err instanceof CsvError) {
      const lines = (err as { lines?: unknown }).lines;
      return problem(
        typeof lines === 'number' ? lines : 0,
        `The CSV cannot be read here: ${maskLongNumbers(err.message)}.`,
      );
    }
    throw err;
  } finally {
    parser.destroy();
  }
}

/** Reads bytes in memory or a stream (a file: readBeneficiaryCsvFile). */
export async function readBeneficiaryCsv(input: Uint8Array | AsyncIterable<Uint8Array>): Promise<CsvRead> {
  const source =
    input instanceof Uint8Array
      ? (async function* () {
          yield input;
        })()
      : input;
  const counted: Counted = { bytes: 0, hash: createHash('sha256') };
  const records = await readRecords(source, counted);
  const read = 'problems' in records ? records : checkRecords(records);
  return { ...read, sha256: counted.hash.digest('hex'), bytesRead: counted.bytes };
}

/** Streams a file from disk, 64 KiB at a time (the CLI's import). */
export const readBeneficiaryCsvFile = (path: string): Promise<CsvRead> =>
  readBeneficiaryCsv(createReadStream(path, { highWaterMark: 64 * 1024 }));

function checkRecords(records: Parsed[]): CsvRead {
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
    return problem(
      0,
      `The file has more than ${MAX_ROWS} rows; import at most ${MAX_ROWS} at a time (split the file).`,
    );
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
