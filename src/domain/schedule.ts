/**
 * A series' schedule as typed (the forms and the API's `schedule`): every N days or weeks, or
 * monthly on a day, at a local time in an IANA zone, ending after K runs or on a date; its
 * validation sentences; and the run dates computed once, at submission, and sealed with the
 * series (what the approvers approve is those dates). Pure.
 */
import { type Clock, type Every, type LocalDate, runDates, shortestGapMs } from './schedule-dates.js';
import { intervalWords, localDateText } from './schedule-words.js';
import { isZone } from './zoned-clock.js';

export type { Every } from './schedule-dates.js';

export interface ScheduleInput {
  every: Every;
  /** "09:00": the local time of each run (optional for a minute or hour cadence). */
  at?: string | undefined;
  /** An IANA zone, e.g. Africa/Lagos. */
  zone: string;
  /** After K runs, or on a local date YYYY-MM-DD (the last run is on or before it). */
  ends: { after: number } | { on: string };
  /** The first local date a run may fall on, YYYY-MM-DD (default: the submission's date). */
  from?: string | undefined;
}

export interface ScheduleLimits {
  /** SCHEDULE_MIN_INTERVAL: the shortest gap between two runs. */
  minIntervalMs: number;
  /** SCHEDULE_MAX_RUNS. */
  maxRuns: number;
  /** SCHEDULE_MAX_AHEAD: the last run is at most this far after the submission. */
  maxAheadMs: number;
}

/** What is sealed with a series: the schedule as typed, normalised, and its run instants. */
export interface SealedSchedule {
  every: Every;
  at: string | undefined;
  zone: string;
  ends: { after: number } | { on: string };
  /** Epoch ms, ascending; run k (from 1) is runs[k - 1]. */
  runs: number[];
}

export type ScheduleField = 'every' | 'at' | 'zone' | 'ends' | 'from';

export type ScheduleProblem =
  | 'schedule_every'
  | 'schedule_time'
  | 'schedule_zone'
  | 'schedule_date'
  | 'schedule_too_often'
  | 'schedule_runs'
  | 'schedule_too_far';

export type ScheduleOutcome =
  | { ok: true; schedule: SealedSchedule }
  | { ok: false; code: ScheduleProblem; field: ScheduleField; message: string };

const refuse = (code: ScheduleProblem, field: ScheduleField, message: string): ScheduleOutcome => ({
  ok: false,
  code,
  field,
  message,
});

const TIME = /^(\d{1,2}):(\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseClock(text: string): Clock | undefined {
  const m = TIME.exec(text.trim());
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : undefined;
}

function parseDate(text: string): LocalDate | undefined {
  const m = DATE.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? { year, month, day } : undefined;
}

function everyProblem(every: Every): ScheduleOutcome | undefined {
  if (every.unit === 'month') {
    if (Number.isInteger(every.day) && every.day >= 1 && every.day <= 31) return undefined;
    return refuse(
      'schedule_every',
      'every',
      'The day of the month must be a whole number from 1 to 31 (29 to 31 run on the last day of shorter months).',
    );
  }
  if (Number.isInteger(every.n) && every.n >= 1 && every.n <= 1000) return undefined;
  return refuse(
    'schedule_every',
    'every',
    `Every must be a whole number of ${every.unit} from 1, for example every 2.`,
  );
}

/**
 * The series' run dates, or the first thing wrong with the schedule in one sentence naming the
 * field it was typed in. `now` is the submission (Redis time at the door).
 */
export function sealSchedule(input: ScheduleInput, limits: ScheduleLimits, now: number): ScheduleOutcome {
  const wrongEvery = everyProblem(input.every);
  if (wrongEvery) return wrongEvery;
  const zone = input.zone.trim();
  if (!isZone(zone))
    return refuse(
      'schedule_zone',
      'zone',
      `"${zone}" is not a time zone Rampart knows: use an IANA name such as Africa/Lagos or Europe/London.`,
    );
  const calendar = input.every.unit !== 'minutes' && input.every.unit !== 'hours';
  const at = input.at?.trim() ? parseClock(input.at) : undefined;
  if ((input.at?.trim() && !at) || (calendar && !at))
    return refuse('schedule_time', 'at', 'Write the time of each run as HH:MM, for example 09:00.');
  const gap = shortestGapMs(input.every);
  if (gap < limits.minIntervalMs)
    return refuse(
      'schedule_too_often',
      'every',
      `A series runs at most once every ${intervalWords(limits.minIntervalMs)} (SCHEDULE_MIN_INTERVAL); choose a longer interval.`,
    );
  const today = localDateText(now, zone);
  const fromText = input.from?.trim() || today;
  const from = parseDate(fromText);
  if (!from) return refuse('schedule_date', 'from', 'Write the first date as YYYY-MM-DD, for example 2026-12-01.');
  if (fromText < today)
    return refuse('schedule_date', 'from', `The first date ${fromText} has passed; choose ${today} or later.`);
  const until = untilOf(input.ends, limits);
  if ('ok' in until) return until;
  const runs = runDates({ every: input.every, zone, at, from, after: now, until, cap: limits.maxRuns + 1 });
  const tooMany = `A series has from 2 to ${limits.maxRuns} runs (SCHEDULE_MAX_RUNS); choose fewer runs or an earlier end date.`;
  if (runs.length > limits.maxRuns) return refuse('schedule_runs', 'ends', tooMany);
  if (runs.length < 2)
    return refuse(
      'schedule_runs',
      'ends',
      'That end date leaves fewer than 2 runs; choose a later end date, or set one payment for a time instead.',
    );
  const lastRun = runs[runs.length - 1] ?? now;
  if (lastRun - now > limits.maxAheadMs)
    return refuse(
      'schedule_too_far',
      'ends',
      `The last run, ${localDateText(lastRun, zone)}, is more than ${intervalWords(limits.maxAheadMs)} ahead (SCHEDULE_MAX_AHEAD); choose fewer runs or an earlier end date.`,
    );
  return {
    ok: true,
    schedule: { every: input.every, at: at ? input.at?.trim() : undefined, zone, ends: input.ends, runs },
  };
}

function untilOf(
  ends: ScheduleInput['ends'],
  limits: ScheduleLimits,
): { count: number } | { lastDate: LocalDate } | Extract<ScheduleOutcome, { ok: false }> {
  if ('after' in ends) {
    if (Number.isInteger(ends.after) && ends.after >= 2 && ends.after <= limits.maxRuns) return { count: ends.after };
    return {
      ok: false,
      code: 'schedule_runs',
      field: 'ends',
      message: `A series has from 2 to ${limits.maxRuns} runs (SCHEDULE_MAX_RUNS); choose a number in that range.`,
    };
  }
  const lastDate = parseDate(ends.on);
  if (lastDate) return { lastDate };
  return {
    ok: false,
    code: 'schedule_date',
    field: 'ends',
    message: 'Write the end date as YYYY-MM-DD, for example 2027-11-30.',
  };
}
