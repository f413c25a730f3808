/**
 * The one line a person reads before a chart: where the series is now, its low and its high with
 * their days, and how far it moved over the span shown. Pure. A chart alone answers none of these
 * at a glance (one axis label, no values), and fifteen figures in a row are not read.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-27" → "Nov 27". */
export function shortDay(day: string): string {
  const [, month = '', date = ''] = day.split('-');
  const name = MONTHS[Number(month) - 1];
  return name ? `${name} ${Number(date)}` : day;
}

/** 119975.5 → "119,975.50": at least two decimals, more when the value has them (up to `max`). */
export function figure(value: number, max = 6): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: max });
}

const DAY = 86_400_000;
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY);

/** "−12 %", "+3 %", "±0 %" (U+2212 for minus, as typeset). */
function change(from: number, to: number): string | undefined {
  if (from === 0) return undefined;
  const pct = Math.round(((to - from) / Math.abs(from)) * 100);
  return pct === 0 ? '±0 %' : `${pct < 0 ? '\u2212' : '+'}${Math.abs(pct)} %`;
}

/**
 * "now 119,975.50 · 30-day low 82,182.70 (Nov 27) · high 156,123.55 (Nov 24) · −12 % vs 30 days ago".
 * @param days YYYY-MM-DD, one per value, oldest first
 * @param span what the low and high cover ("30-day")
 */
export function balanceSummary(days: readonly string[], values: readonly number[], span: string): string {
  const last = values.length - 1;
  if (last < 0) return 'no readings';
  let low = 0;
  let high = 0;
  values.forEach((v, i) => {
    if (v < (values[low] ?? v)) low = i;
    if (v > (values[high] ?? v)) high = i;
  });
  const at = (i: number) => `${figure(values[i] ?? 0)} (${shortDay(days[i] ?? '')})`;
  const parts = [`now ${figure(values[last] ?? 0)}`, `${span} low ${at(low)}`, `high ${at(high)}`];
  const moved = change(values[0] ?? 0, values[last] ?? 0);
  const ago = daysBetween(days[0] ?? '', days[last] ?? '');
  if (moved && ago > 0) parts.push(`${moved} vs ${ago === 1 ? '1 day' : `${ago} days`} ago`);
  return parts.join(' · ');
}

/** "7-day total 25.00 · most on Nov 28: 25.00" for an outflow series (days without outflow named no further). */
export function outflowSummary(days: readonly string[], values: readonly number[], span: string): string {
  const total = values.reduce((a, b) => a + b, 0);
  if (total === 0) return `${span} total 0.00`;
  let top = 0;
  values.forEach((v, i) => {
    if (v > (values[top] ?? v)) top = i;
  });
  const active = values.filter((v) => v > 0).length;
  return `${span} total ${figure(total)} · most on ${shortDay(days[top] ?? '')}: ${figure(values[top] ?? 0)} · out on ${active} of ${values.length} days`;
}
