/**
 * `REPORT_AT`: a weekday, a time and an IANA zone — `mon 09:00 Africa/Lagos` — and the
 * next moment it names after a given instant, across daylight-saving changes. Pure: Intl only.
 * A local time that a DST change skips (02:30 on a spring-forward night) runs at the first
 * minute after the gap; one that happens twice (autumn) runs at the first of the two.
 */
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
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return `"${zone}" is not a time zone Rampart knows: use an IANA name such as Africa/Lagos or Europe/London`;
  }
  const weekday = DAYS.indexOf((m[1] ?? '').toLowerCase().slice(0, 3) as (typeof DAYS)[number]);
  return { weekday, hour, minute, zone, text: typed };
}

interface Local {
  weekday: number;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localAt(ms: number, zone: string): Local {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(ms).map((p) => [p.type, p.value]));
  return {
    weekday: DAYS.indexOf((parts.weekday ?? '').toLowerCase().slice(0, 3) as (typeof DAYS)[number]),
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

const MINUTE = 60_000;

/**
 * The first instant strictly after `after` whose local weekday and time in the zone are the
 * schedule's (or, where DST skipped that time, the first instant after the gap).
 */
export function nextWeeklyRun(at: WeeklyAt, after: number): number {
  const start = localAt(after, at.zone);
  for (let k = 0; k <= 7; k += 1) {
    const day = new Date(Date.UTC(start.year, start.month - 1, start.day + k));
    if (day.getUTCDay() !== at.weekday) continue;
    const run = firstAtOrPast(at, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
    if (run > after) return run;
  }
  throw new Error(`no run of "${at.text}" found within eight days of ${new Date(after).toISOString()}`);
}

/**
 * The first instant whose local date is the given one and whose wall clock shows the run time
 * or later: the run time itself, the first minute after a spring-forward gap, or the first of
 * an autumn night's two. Found on Intl's own answers (15-minute strides, every zone's offset
 * being a multiple of 15 minutes, then single minutes), so no DST arithmetic happens here.
 */
function firstAtOrPast(at: WeeklyAt, year: number, month: number, day: number): number {
  const wanted = at.hour * 60 + at.minute;
  const reached = (t: number) => {
    const l = localAt(t, at.zone);
    const sameDay = l.year === year && l.month === month && l.day === day;
    return sameDay && l.hour * 60 + l.minute >= wanted;
  };
  const guess = Date.UTC(year, month - 1, day, at.hour, at.minute);
  for (let t = guess - 15 * 3_600_000; t <= guess + 15 * 3_600_000; t += 15 * MINUTE) {
    if (!reached(t)) continue;
    for (let m = t - 14 * MINUTE; m <= t; m += MINUTE) if (reached(m)) return m;
  }
  throw new Error(`"${at.text}" has no such moment on ${year}-${month}-${day}`);
}
