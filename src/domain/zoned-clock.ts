/**
 * Wall clocks in IANA zones, on Intl's own answers (no DST arithmetic here, no dependency):
 * what a zone's clock shows at an instant, and the first instant a zone's clock shows a local
 * date and time. A local time that a DST change skips (02:30 on a spring-forward night) is
 * reached at the first minute after the gap; one that happens twice (autumn) at the first of
 * the two. Pure.
 */
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export interface LocalTime {
  weekday: number;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** Whether Intl knows the zone (an IANA name such as Africa/Lagos). */
export function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** What the zone's wall clock shows at the instant. */
export function localAt(ms: number, zone: string): LocalTime {
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
 * The first instant whose local date in the zone is the given one and whose wall clock shows
 * the time or later: the time itself, the first minute after a spring-forward gap, or the first
 * of an autumn night's two. Found in 15-minute strides (every zone's offset is a multiple of 15
 * minutes), then single minutes.
 */
export function firstLocalAtOrPast(
  zone: string,
  date: { year: number; month: number; day: number },
  time: { hour: number; minute: number },
): number {
  const { year, month, day } = date;
  const wanted = time.hour * 60 + time.minute;
  const reached = (t: number) => {
    const l = localAt(t, zone);
    const sameDay = l.year === year && l.month === month && l.day === day;
    return sameDay && l.hour * 60 + l.minute >= wanted;
  };
  const guess = Date.UTC(year, month - 1, day, time.hour, time.minute);
  for (let t = guess - 15 * 3_600_000; t <= guess + 15 * 3_600_000; t += 15 * MINUTE) {
    if (!reached(t)) continue;
    for (let m = t - 14 * MINUTE; m <= t; m += MINUTE) if (reached(m)) return m;
  }
  throw new Error(`no moment ${time.hour}:${time.minute} on ${year}-${month}-${day} in ${zone}`);
}
