import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ScheduleInput, type SealedSchedule, sealSchedule } from '../../../src/domain/schedule.js';
import { scheduleWords } from '../../../src/domain/schedule-words.js';
import { localAt } from '../../../src/domain/zoned-clock.js';

const DAY = 86_400_000;
const limits = { minIntervalMs: DAY, maxRuns: 60, maxAheadMs: 900 * DAY };
const iso = (ms: number) => new Date(ms).toISOString();
const DAILY = { unit: 'days', n: 1 } as const;

function seal(input: ScheduleInput, now: number, over: Partial<typeof limits> = {}): SealedSchedule {
  const outcome = sealSchedule(input, { ...limits, ...over }, now);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.schedule;
}
const refusal = (input: ScheduleInput, now: number, over: Partial<typeof limits> = {}) => {
  const outcome = sealSchedule(input, { ...limits, ...over }, now);
  return outcome.ok ? undefined : { code: outcome.code, field: outcome.field, message: outcome.message };
};

// Saturday 28 November 2026, 12:00 UTC.
const NOW = Date.UTC(2026, 10, 28, 12);

describe('sealSchedule: the run dates', () => {
  it('monthly on the 1st at 09:00 Africa/Lagos, 12 runs: the first on 2026-12-01, sealed as instants', () => {
    const s = seal({ every: { unit: 'month', day: 1 }, at: '09:00', zone: 'Africa/Lagos', ends: { after: 12 } }, NOW);
    expect(s.runs).toHaveLength(12);
    expect(iso(s.runs[0] ?? 0)).toBe('2026-12-01T08:00:00.000Z');
    expect(iso(s.runs[11] ?? 0)).toBe('2027-11-01T08:00:00.000Z');
    expect(scheduleWords(s)).toEqual({
      cadence: 'Monthly on the 1st at 09:00 Africa/Lagos',
      runs: '12 runs',
      first: '2026-12-01',
    });
  });

  /** Sealed at `now`, `input` runs at the instants `runs`. */
  it.each<{ name: string; input: ScheduleInput; now: number; runs: string[] }>([
    {
      name: 'monthly on the 31st runs on the last day of a 30-day month and on 28 February',
      input: { every: { unit: 'month', day: 31 }, at: '09:00', zone: 'UTC', ends: { after: 5 } },
      now: NOW,
      runs: ['2026-11-30T09:00', '2026-12-31T09:00', '2027-01-31T09:00', '2027-02-28T09:00', '2027-03-31T09:00'],
    },
    {
      name: 'monthly on the 31st runs on 29 February in a leap year, and keeps the 31st after it',
      input: { every: { unit: 'month', day: 31 }, at: '10:15', zone: 'UTC', ends: { after: 3 }, from: '2028-01-01' },
      now: Date.UTC(2027, 11, 20),
      runs: ['2028-01-31T10:15', '2028-02-29T10:15', '2028-03-31T10:15'],
    },
    {
      name: 'a daily 02:30 series in New York runs once on 8 March 2026, at 03:00, the first minute after the gap',
      input: { every: DAILY, at: '02:30', zone: 'America/New_York', ends: { on: '2026-03-09' }, from: '2026-03-07' },
      now: Date.UTC(2026, 2, 1),
      // 02:30 EST; 03:00 EDT (02:00–03:00 does not exist that night); 02:30 EDT.
      runs: ['2026-03-07T07:30', '2026-03-08T07:00', '2026-03-09T06:30'],
    },
    {
      // London skips 01:00–02:00 that night (GMT to BST at 01:00 UTC).
      name: 'a daily 01:30 series in London runs once on 29 March 2026, at 02:00 BST',
      input: { every: DAILY, at: '01:30', zone: 'Europe/London', ends: { after: 3 }, from: '2026-03-28' },
      now: Date.UTC(2026, 2, 1),
      runs: ['2026-03-28T01:30', '2026-03-29T01:00', '2026-03-30T00:30'],
    },
    {
      // The second run is 01:30 EDT, the first of the two.
      name: 'a time that happens twice runs once, at the first (New York 1 Nov 2026)',
      input: { every: DAILY, at: '01:30', zone: 'America/New_York', ends: { after: 3 }, from: '2026-10-31' },
      now: Date.UTC(2026, 9, 1),
      runs: ['2026-10-31T05:30', '2026-11-01T05:30', '2026-11-02T06:30'],
    },
    {
      name: 'a time that happens twice runs once, at the first (London 25 Oct 2026)',
      input: { every: DAILY, at: '01:30', zone: 'Europe/London', ends: { after: 2 }, from: '2026-10-25' },
      now: Date.UTC(2026, 9, 1),
      runs: ['2026-10-25T00:30', '2026-10-26T01:30'],
    },
    {
      name: 'a time already past today starts the series on the next date; every 2 weeks counts from there',
      input: { every: { unit: 'weeks', n: 2 }, at: '09:00', zone: 'UTC', ends: { after: 3 } },
      now: NOW,
      runs: ['2026-11-29T09:00', '2026-12-13T09:00', '2026-12-27T09:00'],
    },
    {
      // 28 Nov 18:00 Lagos is still ahead at 12:00 UTC (13:00 Lagos).
      name: 'ending on a date counts the runs on or before it',
      input: { every: { unit: 'days', n: 3 }, at: '18:00', zone: 'Africa/Lagos', ends: { on: '2026-12-07' } },
      now: NOW,
      runs: ['2026-11-28T17:00', '2026-12-01T17:00', '2026-12-04T17:00', '2026-12-07T17:00'],
    },
  ])('$name', ({ input, now, runs }) => {
    expect(seal(input, now).runs.map(iso)).toEqual(runs.map((minute) => `${minute}:00.000Z`));
  });

  it('every 1 minute (SCHEDULE_MIN_INTERVAL=1m, as tests set) runs a minute apart from the submission', () => {
    const s = seal({ every: { unit: 'minutes', n: 1 }, zone: 'UTC', ends: { after: 3 } }, NOW, {
      minIntervalMs: 60_000,
    });
    expect(s.runs).toEqual([NOW + 60_000, NOW + 120_000, NOW + 180_000]);
    expect(scheduleWords(s).cadence).toBe('Every minute');
  });

  it('any daily series has one run on each consecutive local date, each at the local time or just after a gap', () => {
    const zones = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 364 }),
        (zone, hour, minute, offsetDays) => {
          const now = Date.UTC(2026, 0, 1) + offsetDays * DAY;
          const at = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const s = seal({ every: { unit: 'days', n: 1 }, at, zone, ends: { after: 10 } }, now);
          expect(s.runs).toHaveLength(10);
          let previous: number | undefined;
          for (const run of s.runs) {
            expect(run).toBeGreaterThan(now);
            const l = localAt(run, zone);
            expect(l.hour * 60 + l.minute).toBeGreaterThanOrEqual(hour * 60 + minute);
            if (previous !== undefined) {
              const p = localAt(previous, zone);
              expect(Date.UTC(l.year, l.month - 1, l.day) - Date.UTC(p.year, p.month - 1, p.day)).toBe(DAY);
            }
            previous = run;
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('sealSchedule: one sentence for each wrong input, naming the field', () => {
  const monthly: ScheduleInput = {
    every: { unit: 'month', day: 1 },
    at: '09:00',
    zone: 'Africa/Lagos',
    ends: { after: 12 },
  };

  it('refuses a cadence more often than SCHEDULE_MIN_INTERVAL', () => {
    expect(refusal({ ...monthly, every: { unit: 'hours', n: 12 } }, NOW)).toEqual({
      code: 'schedule_too_often',
      field: 'every',
      message: 'A series runs at most once every 1 day (SCHEDULE_MIN_INTERVAL); choose a longer interval.',
    });
  });

  it('refuses more runs than SCHEDULE_MAX_RUNS, by count or by end date, and fewer than 2', () => {
    expect(refusal({ ...monthly, ends: { after: 61 } }, NOW)?.message).toBe(
      'A series has from 2 to 60 runs (SCHEDULE_MAX_RUNS); choose a number in that range.',
    );
    expect(refusal({ ...monthly, every: { unit: 'days', n: 1 }, ends: { on: '2027-03-01' } }, NOW)).toEqual({
      code: 'schedule_runs',
      field: 'ends',
      message: 'A series has from 2 to 60 runs (SCHEDULE_MAX_RUNS); choose fewer runs or an earlier end date.',
    });
    expect(refusal({ ...monthly, ends: { on: '2026-12-15' } }, NOW)?.message).toBe(
      'That end date leaves fewer than 2 runs; choose a later end date, or set one payment for a time instead.',
    );
  });

  it('refuses a last run beyond SCHEDULE_MAX_AHEAD', () => {
    expect(refusal(monthly, NOW, { maxAheadMs: 90 * DAY })).toEqual({
      code: 'schedule_too_far',
      field: 'ends',
      message:
        'The last run, 2027-11-01, is more than 90 days ahead (SCHEDULE_MAX_AHEAD); choose fewer runs or an earlier end date.',
    });
  });

  it('refuses a bad day, time, zone or date where each was typed', () => {
    expect(refusal({ ...monthly, every: { unit: 'month', day: 32 } }, NOW)).toMatchObject({
      code: 'schedule_every',
      field: 'every',
      message:
        'The day of the month must be a whole number from 1 to 31 (29 to 31 run on the last day of shorter months).',
    });
    expect(refusal({ ...monthly, every: { unit: 'weeks', n: 0 } }, NOW)?.message).toBe(
      'Every must be a whole number of weeks from 1, for example every 2.',
    );
    expect(refusal({ ...monthly, at: '9am' }, NOW)).toMatchObject({ code: 'schedule_time', field: 'at' });
    expect(refusal({ ...monthly, at: undefined }, NOW)?.message).toBe(
      'Write the time of each run as HH:MM, for example 09:00.',
    );
    expect(refusal({ ...monthly, zone: 'Lagos/Nowhere' }, NOW)).toEqual({
      code: 'schedule_zone',
      field: 'zone',
      message:
        '"Lagos/Nowhere" is not a time zone Rampart knows: use an IANA name such as Africa/Lagos or Europe/London.',
    });
    expect(refusal({ ...monthly, ends: { on: '2027-02-30' } }, NOW)).toMatchObject({
      code: 'schedule_date',
      field: 'ends',
    });
    expect(refusal({ ...monthly, from: '2026-11-27' }, NOW)).toEqual({
      code: 'schedule_date',
      field: 'from',
      message: 'The first date 2026-11-27 has passed; choose 2026-11-28 or later.',
    });
  });
});
