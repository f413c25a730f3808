/**
 * Plain-text tables for a terminal: pure functions, no I/O. Columns are as wide as their widest
 * cell; numbers line up on the right.
 */
export type Align = 'left' | 'right';

export interface Column {
  title: string;
  align?: Align;
}

const EMPTY = '—';

// Terminal cells: code points, not UTF-16 units, so "•" and "—" count once.
const width = (s: string): number => [...s].length;
const pad = (s: string, n: number, align: Align): string => {
  const fill = ' '.repeat(Math.max(0, n - width(s)));
  return align === 'right' ? fill + s : s + fill;
};

/** One line per cell, so a service's text cannot break the layout. */
const cell = (value: string | undefined): string =>
  value === undefined || value === '' ? EMPTY : value.replace(/\s+/g, ' ');

export function table(columns: readonly Column[], rows: readonly (readonly (string | undefined)[])[]): string {
  const cells = rows.map((r) => columns.map((_, i) => cell(r[i])));
  const widths = columns.map((c, i) => Math.max(width(c.title), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => pad(c, widths[i] ?? 0, columns[i]?.align ?? 'left'))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...cells.map(line)].join('\n');
}

/** "Label   value" lines for one record. */
export function keyValues(pairs: readonly (readonly [string, string | undefined])[]): string {
  const widest = Math.max(0, ...pairs.map(([k]) => width(k)));
  return pairs.map(([k, v]) => `${pad(k, widest, 'left')}  ${cell(v)}`).join('\n');
}
