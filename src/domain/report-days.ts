/** The report zone's calendar days, pure. */
import type { ReportWindow } from './report.js';

const dayFormat = new Map<string, Intl.DateTimeFormat>();
/** YYYY-MM-DD of the instant in the zone. */
export function dayOf(ms: number, zone: string): string {
  let f = dayFormat.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormat.set(zone, f);
  }
  return f.format(ms);
}

export function daysBetween(window: ReportWindow): string[] {
  const days: string[] = [];
  for (let t = window.since; t < window.until + 86_400_000; t += 3_600_000) {
    const d = dayOf(Math.min(t, window.until), window.zone);
    if (days.at(-1) !== d) days.push(d);
  }
  return days;
}
