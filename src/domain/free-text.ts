/**
 * What people type that others read (a reason, a row's reference): which characters free text
 * may hold, decided here for every door (Slack, a batch file, the HTTP API). A line break,
 * another control character, a Unicode line or paragraph separator, or an invisible direction
 * control lets typed text pose as more lines of a card, or show its characters in an order
 * other than the one stored (Unicode UAX #9; CVE-2021-42574 "Trojan Source"). Pure.
 */

/** Controls (Cc: C0, DEL, C1), U+2028/2029, and the bidi controls: embeddings, overrides, isolates, marks. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

function named(ch: string): string {
  const u = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') return `a line break (${u})`;
  if (ch === '\t') return `a tab (${u})`;
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u.test(ch)) return `an invisible text-direction control (${u})`;
  return `a control character (${u})`;
}

/**
 * Undefined when `text` may be kept and shown as typed; otherwise the end of a sentence that
 * starts with what it is ("the reference"): what it holds and what to do.
 */
export function freeTextProblem(text: string, what: string): string | undefined {
  const hit = UNSAFE.exec(text);
  if (!hit) return undefined;
  return `${what} holds ${named(hit[0])}; write it on one line with visible characters only.`;
}

/**
 * Free text stored before it was checked (or a multi-line reason from a form) as one line to
 * show: every character freeTextProblem refuses becomes a space, runs of spaces one.
 */
export const oneLine = (text: string): string =>
  text.replace(new RegExp(UNSAFE.source, 'gu'), ' ').replace(/ {2,}/g, ' ').trim();
