/**
 * An address-book import file: UTF-8, a header row naming the columns name, chain, address and
 * optionally wallets (wallet ids or aliases separated by ";", empty for every wallet), one entry
 * per row. Parsed by csv-parse, never by splitting on commas. Pure.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { entryProblem } from './address-book.js';

export const ENTRY_COLUMNS = ['name', 'chain', 'address'] as const;

export interface EntryRow {
  line: number;
  name: string;
  chain: string;
  address: string;
  wallets: '*' | string[];
}

export type EntryFile = { rows: EntryRow[]; problems: { line: number; message: string }[] };

export function readEntriesCsv(text: string): EntryFile {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    const line = err instanceof CsvError ? Number((err as CsvError & { lines?: number }).lines ?? 1) : 1;
    return { rows: [], problems: [{ line, message: 'This is not a readable CSV file; save it as CSV (UTF-8).' }] };
  }
  const [header = [], ...body] = records;
  const at = (name: string) => header.findIndex((h) => h.toLowerCase() === name);
  const missing = ENTRY_COLUMNS.filter((c) => at(c) < 0);
  if (missing.length > 0)
    return {
      rows: [],
      problems: [
        {
          line: 1,
          message: `The header row needs the columns ${ENTRY_COLUMNS.join(', ')}; ${missing.join(', ')} missing.`,
        },
      ],
    };
  const rows: EntryRow[] = [];
  const problems: EntryFile['problems'] = [];
  for (const [i, cells] of body.entries()) {
    const line = i + 2;
    const cell = (name: string) => (at(name) < 0 ? '' : (cells[at(name)] ?? ''));
    const row = { name: cell('name'), chain: cell('chain').toLowerCase(), address: cell('address') };
    const problem = entryProblem(row);
    if (problem) {
      problems.push({ line, message: `Line ${line}: ${problem.message}` });
      continue;
    }
    const listed = cell('wallets')
      .split(';')
      .map((w) => w.trim())
      .filter((w) => w !== '');
    rows.push({ line, ...row, wallets: listed.length === 0 ? '*' : listed });
  }
  return { rows, problems };
}
