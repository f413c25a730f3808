/**
 * What a live series' one job does when it wakes: which due run it creates, which missed runs it
 * skips and why, whether it posts the notice before the next run, and when it wakes next. A run
 * due while Rampart was frozen or not running is created late only within SCHEDULE_GRACE of its
 * time, and after downtime at most one missed run runs, the latest within the grace: a payroll
 * missed for three days is not paid three times in a row when the worker comes back. Pure.
 */
import { intervalWords, localTimeText } from './schedule-words.js';

export interface PlanInput {
  /** The sealed run instants (run k is runs[k - 1]). */
  runs: readonly number[];
  /** The runs the series has recorded (created or skipped), by k. */
  marked: ReadonlySet<number>;
  now: number;
  zone: string;
  /** SCHEDULE_GRACE. */
  graceMs: number;
  /** SCHEDULE_NOTICE. */
  noticeMs: number;
  /** Rampart is frozen now. */
  frozen: boolean;
  /** The highest run a freeze held (0: none). */
  held: number;
}

export interface SeriesPlan {
  /** The due run to create now (held instead while frozen). */
  run: number | undefined;
  /** Missed runs to skip, oldest first, each with the sentence the thread shows. */
  missed: { k: number; why: string }[];
  /** The run whose notice is due now. */
  notice: number | undefined;
  /** When the job wakes next (a notice or a run), undefined when no run is left. */
  wakeAt: number | undefined;
}

/**
 * How long before run k its notice goes: SCHEDULE_NOTICE, at most half the gap from the run
 * before it (for the first run, the gap to the second), so a notice never comes before the run it
 * follows: a series every minute gets its notice 30 s before each run.
 */
export function noticeLeadMs(runs: readonly number[], k: number, noticeMs: number): number {
  const at = runs[k - 1] ?? 0;
  const before = runs[k - 2];
  const after = runs[k];
  const gap = before !== undefined ? at - before : after !== undefined ? after - at : 2 * noticeMs;
  return Math.min(noticeMs, Math.floor(gap / 2));
}

export function planSeries(p: PlanInput): SeriesPlan {
  const due: number[] = [];
  let upcoming: number | undefined;
  for (const [i, at] of p.runs.entries()) {
    const k = i + 1;
    if (p.marked.has(k)) continue;
    if (at <= p.now) due.push(k);
    else if (upcoming === undefined) upcoming = k;
  }
  const atOf = (k: number) => p.runs[k - 1] ?? 0;
  const latest = due[due.length - 1];
  const run = latest !== undefined && p.now - atOf(latest) <= p.graceMs ? latest : undefined;
  const missed = due
    .filter((k) => k !== run)
    .map((k) => {
      const cause = p.frozen || k <= p.held ? 'while payments were frozen' : 'while Rampart was not running';
      const late =
        p.now - atOf(k) > p.graceMs
          ? `more than SCHEDULE_GRACE (${intervalWords(p.graceMs)}) ago`
          : `run ${run} runs in its place, as at most one missed run runs`;
      return { k, why: `due at ${localTimeText(atOf(k), p.zone)} ${p.zone} ${cause}; ${late}` };
    });
  if (upcoming === undefined) return { run, missed, notice: undefined, wakeAt: undefined };
  const at = atOf(upcoming);
  const noticeAt = at - noticeLeadMs(p.runs, upcoming, p.noticeMs);
  return p.now >= noticeAt
    ? { run, missed, notice: upcoming, wakeAt: at }
    : { run, missed, notice: undefined, wakeAt: noticeAt };
}
