/**
 * The CSV export formula guard: one shared cell function neutralises every value a
 * spreadsheet could run (OWASP CSV injection), including triggers behind spaces, tabs or line
 * breaks, and a leading tab or carriage return on its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../src/audit/format.js';
import { csvCell, csvLine, looksLikeFormula } from '../../../src/domain/csv-safe.js';

/** RFC 4180 reading of one line, enough to check what a spreadsheet receives per cell. */
function readLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i += 1;
      for (;;) {
        const c = line[i];
        if (c === undefined) throw new Error('unterminated quote');
        if (c === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (c === '"') {
          i += 1;
          break;
        } else {
          cell += c;
          i += 1;
        }
      }
    } else {
      while (i < line.length && line[i] !== ',') cell += line[i++];
    }
    cells.push(cell);
    if (i >= line.length) return cells;
    if (line[i] !== ',') throw new Error(`text after a closing quote at ${i}`);
    i += 1;
  }
}

/** What a spreadsheet would evaluate: the cell after the whitespace it skips starts a formula. */
const dangerous = (cell: string) => /^[\s\u00a0\ufeff]*[=+\-@]/.test(cell) || /^[\t\r\n]/.test(cell);

describe('csvCell', () => {
  it.each([
    ['=1+1', `"'=1+1"`],
    ['+SUM(A1)', `"'+SUM(A1)"`],
    ['-2', `"'-2"`],
    ['@cmd', `"'@cmd"`],
    [' =HYPERLINK("http://x")', `"' =HYPERLINK(""http://x"")"`],
    ['\n=1', `"'\n=1"`],
    ['\t=1', `"'\t=1"`],
    ['\r+1', `"'\r+1"`],
    ['  \t @x', `"'  \t @x"`],
    ['\tplain', `"'\tplain"`],
    ['\rplain', `"'\rplain"`],
  ])('neutralises %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
    expect(looksLikeFormula(value)).toBe(true);
  });

  it('leaves ordinary text, numbers and empty cells as they are (quoted only when RFC 4180 needs it)', () => {
    expect(csvCell('R-1001')).toBe('R-1001');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['x', 1, undefined, '=y'])).toBe(`x,1,,"'=y"`);
  });

  it('is what the audit export writes with', () => {
    expect(csvField).toBe(csvCell);
  });

  it('never lets a spreadsheet see a formula, and never loses or shifts a cell (property)', () => {
    const piece = fc.constantFrom('=', '+', '-', '@', ' ', '\t', '\r', '\n', ',', '"', "'", 'a', '1', '\u00a0');
    const text = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (values) => {
        const cells = readLine(csvLine(values));
        // The value itself survives: as it was, or behind the one guarding quote exactly when it
        // looks like a formula; and no cell is one. Two assertions a run, for 2,000 runs.
        expect(cells).toEqual(values.map((v) => (looksLikeFormula(v) ? `'${v}` : v)));
        expect(cells.filter(dangerous)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
