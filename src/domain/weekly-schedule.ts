/**
 * `REPORT_AT`: a weekday, a time and an IANA zone — `mon 09:00 Africa/Lagos` — and the
 * next moment it names after a given instant, across daylight-saving changes. Pure: Intl only.
 * A local time that a DST change skips (02:30 on a spring-forward night) runs at the first
 * minute after the gap; one that happens twice (autumn) runs at the first of the two.
 */
import { firstLocalAtOrPast, isZone, localAt } from './zoned-clock.js';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export interface WeeklyAt {
  weekday: number;
  hour: number;
  minute: number;
  zone: string;
  text: string;
}

const SHAPE = /^(sun|mon|tue|wed|thu|fri|sat)[a-z]*\s+(\d{1,2}):(\d{2})\s+(\S+)$/i;

/** The schedule, or a sentence saying what is wrong and how to write it. */
export function parseWeeklyAt(text: string): WeeklyAt | string {
  const typed = text.trim();
  const m = SHAPE.exec(typed);
  const example = 'write it like mon 09:00 Africa/Lagos';
  if (!m) return `"${typed}" is not a weekly time: ${example}`;
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  if (hour > 23 || minute > 59) return `"${typed}" has no such time of day: ${example}`;
  const zone = m[4] ?? '';
  if (!isZone(zone)) {
    return `"${zone}" is not a time zone Rampart knows: use an IANA name such as Africa/Lagos or Europe/London`;
  }
  const weekday = DAYS.indexOf((m[1] ?? '').toLowerCase().slice(0, 3) as (typeof DAYS)[number]);
  return { weekday, hour, minute, zone, text: typed };
}

/**
 * The first instant strictly after `after` whose local weekday and time in the zone are the
 * schedule's (or, where DST skipped that time, the first instant after the gap).
 */
export function nextWeeklyRun(at: WeeklyAt, after: number): number {
  const start = localAt(after, at.zone);
  for (let k = 0; k <= 7; k += 1) {
    const day = new Date(Date.UTC(start.year, start.month - 1, start.day + k));
    if (day.getUTCDay() !== at.weekday) continue;
    const date = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
    const run = firstLocalAtOrPast(at.zone, date, at);
    if (run > after) return run;
  }
  throw new Error(`no run of "${at.text}" found within eight days of ${new Date(after).toISOString()}`);
}
