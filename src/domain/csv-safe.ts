/**
 * One CSV cell, safe to open in a spreadsheet: every CSV
 * Rampart writes builds its cells here (the audit export now, batch receipts later). OWASP's
 * CSV-injection guidance: a cell a spreadsheet could read as a formula — one starting with
 * = + - @, a tab or a carriage return, also after leading spaces or line breaks, which
 * spreadsheets skip — is prefixed with ' and quoted; then RFC 4180 quoting ("" inside quotes).
 * Numbers Rampart itself produces (times, counts) are written as they are.
 */

/** Text a spreadsheet could take for a formula (whitespace it skips, then a trigger). */
const FORMULA = /^[\s\u00a0\ufeff]*[=+\-@]|^[\t\r\n]/;
const NEEDS_QUOTES = /[",\n\r\t;]|^\s|\s$/;

export const looksLikeFormula = (text: string): boolean => FORMULA.test(text);

export function csvCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (looksLikeFormula(value)) return `"'${value.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One CSV line (no line break) of safe cells. */
export const csvLine = (values: readonly (string | number | undefined)[]): string => values.map(csvCell).join(',');
