/**
 * A series' schedule in words, for its card, its thread and the lists: "Monthly on the 1st at
 * 09:00 Africa/Lagos", "Every 2 weeks at 09:00 Europe/London", "first run 2026-12-01". Pure.
 */
import type { Every } from './schedule-dates.js';
import { localAt } from './zoned-clock.js';

const two = (n: number) => String(n).padStart(2, '0');

/** "2026-12-01": the local date of an instant in the zone. */
export function localDateText(ms: number, zone: string): string {
  const l = localAt(ms, zone);
  return `${l.year}-${two(l.month)}-${two(l.day)}`;
}

/** "2026-12-01 09:00": the local date and time of an instant in the zone. */
export function localTimeText(ms: number, zone: string): string {
  const l = localAt(ms, zone);
  return `${localDateText(ms, zone)} ${two(l.hour)}:${two(l.minute)}`;
}

/**
 * "today 09:00", "tomorrow 09:00" or "on 2026-12-03 09:00": a run's time as its notice says it,
 * the day named in the series' zone (tomorrow is the next calendar date there, 23 or 25 hours
 * away on a daylight-saving day).
 */
export function runDayWords(ms: number, now: number, zone: string): string {
  const l = localAt(ms, zone);
  const time = `${two(l.hour)}:${two(l.minute)}`;
  const day = localDateText(ms, zone);
  const today = localAt(now, zone);
  const next = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  const tomorrow = `${next.getUTCFullYear()}-${two(next.getUTCMonth() + 1)}-${two(next.getUTCDate())}`;
  if (day === localDateText(now, zone)) return `today ${time}`;
  return day === tomorrow ? `tomorrow ${time}` : `on ${day} ${time}`;
}

const UNITS: [number, string][] = [
  [7 * 86_400_000, 'week'],
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** "1 day", "2 weeks", "90 days": a setting's length in whole units. */
export function intervalWords(ms: number): string {
  for (const [size, word] of UNITS) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n} ${word}${n === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}

export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function cadenceWords(every: Every): string {
  if (every.unit === 'month') return `Monthly on the ${ordinal(every.day)}`;
  const singular = every.unit.slice(0, -1);
  return every.n === 1 ? `Every ${singular}` : `Every ${every.n} ${every.unit}`;
}

/** "Monthly on the 1st at 09:00 Africa/Lagos, 12 runs; first run 2026-12-01". */
export function scheduleWords(s: { every: Every; at: string | undefined; zone: string; runs: readonly number[] }): {
  cadence: string;
  runs: string;
  first: string;
} {
  const at = s.at ? ` at ${s.at} ${s.zone}` : '';
  const first = s.runs[0];
  const calendar = s.every.unit !== 'minutes' && s.every.unit !== 'hours';
  return {
    cadence: `${cadenceWords(s.every)}${at}`,
    runs: `${s.runs.length} run${s.runs.length === 1 ? '' : 's'}`,
    first: first === undefined ? '' : calendar ? localDateText(first, s.zone) : localTimeText(first, s.zone),
  };
}
