/**
 * A series' run dates: the instants a cadence names in a zone, from a first local date, after a
 * given moment, up to a count or a last local date. Daylight saving is the zone clock's
 * (domain/zoned-clock.ts): a skipped local time runs at the first minute after the gap, a
 * repeated one once, at the first. A monthly day past a month's end runs on its last day. Pure.
 */
import { firstLocalAtOrPast, localAt } from './zoned-clock.js';

export type Every =
  | { unit: 'minutes' | 'hours' | 'days' | 'weeks'; n: number }
  /** Monthly on a day of the month, 1–31; 29–31 run on the last day of shorter months. */
  | { unit: 'month'; day: number };

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface Clock {
  hour: number;
  minute: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The shortest gap a cadence allows between two runs, as SCHEDULE_MIN_INTERVAL compares it. */
export function shortestGapMs(every: Every): number {
  switch (every.unit) {
    case 'minutes':
      return every.n * MINUTE;
    case 'hours':
      return every.n * 60 * MINUTE;
    case 'days':
      return every.n * DAY;
    case 'weeks':
      return every.n * 7 * DAY;
    case 'month':
      // February: the 28th (or the last day) of one month to the same of the next.
      return 28 * DAY;
  }
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The local date `k` steps of a calendar cadence after `from` (days, weeks or months). */
function stepDate(every: Every, from: LocalDate, k: number): LocalDate {
  if (every.unit === 'month') {
    const first = new Date(Date.UTC(from.year, from.month - 1 + k, 1));
    const year = first.getUTCFullYear();
    const month = first.getUTCMonth() + 1;
    return { year, month, day: Math.min(every.day, daysIn(year, month)) };
  }
  const step = every.unit === 'weeks' ? 7 * every.n : every.n;
  const d = new Date(Date.UTC(from.year, from.month - 1, from.day + step * k));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const dateKey = (d: LocalDate) => d.year * 10_000 + d.month * 100 + d.day;

export interface RunWindow {
  every: Every;
  zone: string;
  /** The local time of day; a minute or hour cadence counts from it on `from` (or from `after`). */
  at: Clock | undefined;
  /** The first local date a run may fall on. */
  from: LocalDate;
  /** Runs come strictly after this instant (the submission). */
  after: number;
  /** Stop after this many runs, or after the last run on or before this local date. */
  until: { count: number } | { lastDate: LocalDate };
  /** Never compute more than this many (the caller refuses a series that reaches it). */
  cap: number;
}

/** The run instants, ascending; at most `cap`. */
export function runDates(w: RunWindow): number[] {
  const limit = 'count' in w.until ? Math.min(w.until.count, w.cap) : w.cap;
  const last = 'lastDate' in w.until ? dateKey(w.until.lastDate) : Number.POSITIVE_INFINITY;
  return w.every.unit === 'minutes' || w.every.unit === 'hours'
    ? fixedStep(w, limit, last)
    : calendarStep(w, limit, last);
}

/** A minute or hour cadence: a fixed stride in real time, so daylight saving does not move it. */
function fixedStep(w: RunWindow, limit: number, last: number): number[] {
  const gap = shortestGapMs(w.every);
  let t = w.at ? firstLocalAtOrPast(w.zone, w.from, w.at) : w.after + gap;
  if (t <= w.after) t += Math.ceil((w.after - t + 1) / gap) * gap;
  const runs: number[] = [];
  while (runs.length < limit && localDateKey(t, w.zone) <= last) {
    runs.push(t);
    t += gap;
  }
  return runs;
}

/**
 * Days, weeks or months: the same local time on each date. The first run is the first date on
 * or after `from` whose time is still ahead; the cadence counts from that date (a monthly series
 * keeps its day, whatever the first month).
 */
function calendarStep(w: RunWindow, limit: number, last: number): number[] {
  const at = w.at ?? { hour: 0, minute: 0 };
  let anchor = w.from;
  // The first date whose run is still ahead: at most one cadence step past `after`'s date.
  for (let i = 0; i < 400; i += 1) {
    const candidate =
      w.every.unit === 'month' ? stepDate(w.every, w.from, i) : stepDate({ unit: 'days', n: 1 }, w.from, i);
    if (w.every.unit === 'month' && dateKey(candidate) < dateKey(w.from)) continue;
    if (firstLocalAtOrPast(w.zone, candidate, at) > w.after) {
      anchor = candidate;
      break;
    }
  }
  const runs: number[] = [];
  for (let k = 0; runs.length < limit; k += 1) {
    const date = stepDate(w.every, anchor, k);
    if (dateKey(date) > last) break;
    runs.push(firstLocalAtOrPast(w.zone, date, at));
  }
  return runs;
}

function localDateKey(ms: number, zone: string): number {
  return dateKey(localAt(ms, zone));
}
