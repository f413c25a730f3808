/**
 * A rate as operators type it (`BATCH_RATE=5/s`, `API_RATE`, `off` for none):
 * `<count>/<s|m|h>` with an optional burst (`2/s burst 10`). Pure: the limiter applies it.
 */
export interface Rate {
  /** Milliseconds between two admissions at the steady pace. */
  intervalMs: number;
  /** How many may pass at once after a quiet spell (1 = strictly paced). */
  burst: number;
  /** As typed, for messages. */
  text: string;
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
const RATE = /^(\d+(?:\.\d+)?)\s*\/\s*(s|m|h)(?:\s+burst\s+(\d+))?$/i;

/** The rate, `undefined` for `off`, or a sentence saying what is wrong. */
export function parseRate(text: string): Rate | undefined | string {
  const typed = text.trim();
  if (/^off$/i.test(typed)) return undefined;
  const m = RATE.exec(typed);
  if (!m) return `"${typed}" is not a rate: write it like 5/s, 300/m or 2/s burst 10, or off`;
  const count = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase() as keyof typeof UNIT_MS;
  const burst = m[3] === undefined ? 1 : Number(m[3]);
  if (!(count > 0)) return `"${typed}" allows nothing: use a count above zero, or off`;
  if (burst < 1 || burst > 10_000) return `"${typed}" has a burst outside 1 to 10000`;
  const intervalMs = UNIT_MS[unit] / count;
  if (intervalMs < 1) return `"${typed}" is faster than one per millisecond; use off for no limit`;
  return { intervalMs, burst, text: typed };
}
