import { describe, expect, it } from 'vitest';
import { nextWeeklyRun, parseWeeklyAt, type WeeklyAt } from '../../../src/domain/weekly-schedule.js';

const at = (text: string): WeeklyAt => {
  const parsed = parseWeeklyAt(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe('parseWeeklyAt', () => {
  it('reads a weekday, a time and an IANA zone', () => {
    expect(at('mon 09:00 Africa/Lagos')).toMatchObject({ weekday: 1, hour: 9, minute: 0, zone: 'Africa/Lagos' });
    expect(at('Friday 17:30 Europe/London')).toMatchObject({ weekday: 5, hour: 17, minute: 30 });
  });

  it('says what is wrong in one sentence', () => {
    expect(parseWeeklyAt('monday at nine')).toBe(
      '"monday at nine" is not a weekly time: write it like mon 09:00 Africa/Lagos',
    );
    expect(parseWeeklyAt('mon 25:00 Africa/Lagos')).toBe(
      '"mon 25:00 Africa/Lagos" has no such time of day: write it like mon 09:00 Africa/Lagos',
    );
    expect(parseWeeklyAt('mon 09:00 Lagos/Nowhere')).toBe(
      '"Lagos/Nowhere" is not a time zone Rampart knows: use an IANA name such as Africa/Lagos or Europe/London',
    );
  });
});

describe('nextWeeklyRun', () => {
  it('finds the next Monday 09:00 in Lagos (UTC+1, no DST)', () => {
    // Wednesday 25 November 2026, 12:00 UTC.
    expect(iso(nextWeeklyRun(at('mon 09:00 Africa/Lagos'), Date.UTC(2026, 10, 25, 12)))).toBe(
      '2026-11-30T08:00:00.000Z',
    );
    // Exactly at the run time, the next one is a week later.
    expect(iso(nextWeeklyRun(at('mon 09:00 Africa/Lagos'), Date.UTC(2026, 10, 30, 8)))).toBe(
      '2026-12-07T08:00:00.000Z',
    );
  });

  it('keeps local time across a DST change (London: BST ends 25 Oct 2026)', () => {
    const monday9 = at('mon 09:00 Europe/London');
    expect(iso(nextWeeklyRun(monday9, Date.UTC(2026, 9, 13)))).toBe('2026-10-19T08:00:00.000Z'); // BST, UTC+1
    expect(iso(nextWeeklyRun(monday9, Date.UTC(2026, 9, 20)))).toBe('2026-10-26T09:00:00.000Z'); // GMT, UTC+0
  });

  it('runs a time the spring-forward night skips at the first minute after the gap (New York, 8 Mar 2026)', () => {
    const sunday230 = at('sun 02:30 America/New_York');
    expect(iso(nextWeeklyRun(sunday230, Date.UTC(2026, 2, 5)))).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
    expect(iso(nextWeeklyRun(sunday230, Date.UTC(2026, 2, 9)))).toBe('2026-03-15T06:30:00.000Z'); // 02:30 EDT
  });

  it('runs a time the autumn night repeats once, at the first (New York, 1 Nov 2026)', () => {
    const sunday130 = at('sun 01:30 America/New_York');
    expect(iso(nextWeeklyRun(sunday130, Date.UTC(2026, 9, 30)))).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
    expect(iso(nextWeeklyRun(sunday130, Date.UTC(2026, 10, 1, 5, 31)))).toBe('2026-11-08T06:30:00.000Z');
  });
});
