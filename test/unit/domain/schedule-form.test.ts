/** The request forms' repeat fields read into a schedule, and what only the form can get wrong. */
import { describe, expect, it } from 'vitest';
import { type ScheduleInput, sealSchedule } from '../../../src/domain/schedule.js';
import { readScheduleForm, type ScheduleFormText } from '../../../src/domain/schedule-form.js';
import { localDateText } from '../../../src/domain/schedule-words.js';

const empty: ScheduleFormText = {
  repeat: undefined,
  every: undefined,
  at: undefined,
  ends: undefined,
  from: undefined,
};
const form = (f: Partial<ScheduleFormText>) => readScheduleForm({ ...empty, ...f }, 'Africa/Lagos');
const series = (input: ScheduleInput) => ({ kind: 'series', input });

describe('readScheduleForm', () => {
  it('is a single payment when the repeat is once and the repeat fields are empty, whatever the time field holds', () => {
    expect(form({})).toEqual({ kind: 'once' });
    expect(form({ repeat: 'once', at: '09:00 UTC' })).toEqual({ kind: 'once' });
  });

  it('asks for a repeat choice when Every or Ends is filled without one', () => {
    expect(form({ ends: '12' })).toMatchObject({ kind: 'problem', field: 'repeat' });
    expect(form({ repeat: 'once', every: '2' })).toMatchObject({ kind: 'problem', field: 'repeat' });
  });

  it('reads every N days or weeks (empty N is 1), a time with or without its zone, and both kinds of end', () => {
    // toEqual: an undefined `from` is the same as none.
    expect(form({ repeat: 'weeks', every: '2', at: '09:00 Europe/London', ends: 'after 12 runs' })).toEqual(
      series({ every: { unit: 'weeks', n: 2 }, at: '09:00', zone: 'Europe/London', ends: { after: 12 } }),
    );
    expect(form({ repeat: 'days', at: '07:30', ends: 'on 2027-01-31', from: '2026-12-02' })).toEqual(
      series({
        every: { unit: 'days', n: 1 },
        at: '07:30',
        zone: 'Africa/Lagos',
        ends: { on: '2027-01-31' },
        from: '2026-12-02',
      }),
    );
    for (const ends of ['12', '12 runs', 'after 12 runs', 'After 12 Runs'])
      expect(form({ repeat: 'days', ends })).toMatchObject({ input: { ends: { after: 12 } } });
  });

  it('reads monthly on a day as typed (31, 31st, the 31st) and asks for the day when it is empty', () => {
    for (const every of ['31', '31st', 'the 31st'])
      expect(form({ repeat: 'month', every, ends: '3' })).toMatchObject({
        input: { every: { unit: 'month', day: 31 } },
      });
    expect(form({ repeat: 'month', ends: '3' })).toMatchObject({ kind: 'problem', field: 'every' });
  });

  it('hands a day or count it cannot read to sealSchedule, whose sentence names the Every field', () => {
    const read = form({ repeat: 'month', every: 'last', at: '09:00', ends: '3' });
    if (read.kind !== 'series') throw new Error(read.kind);
    const sealed = sealSchedule(
      read.input,
      { minIntervalMs: 86_400_000, maxRuns: 60, maxAheadMs: 400 * 86_400_000 },
      Date.now(),
    );
    expect(sealed).toMatchObject({ ok: false, field: 'every' });
  });

  it('a monthly series on the 31st, read from the form, runs on the last day of shorter months', () => {
    const read = form({ repeat: 'month', every: '31st', at: '09:00', ends: '4', from: '2026-12-01' });
    if (read.kind !== 'series') throw new Error(read.kind);
    const sealed = sealSchedule(
      read.input,
      { minIntervalMs: 86_400_000, maxRuns: 60, maxAheadMs: 400 * 86_400_000 },
      Date.parse('2026-11-28T12:00:00Z'),
    );
    if (!sealed.ok) throw new Error(sealed.message);
    expect(sealed.schedule.runs.map((ms) => localDateText(ms, 'Africa/Lagos'))).toEqual([
      '2026-12-31',
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
    ]);
  });

  it('asks for an end it can read: empty, or neither a number nor a date', () => {
    expect(form({ repeat: 'weeks' })).toMatchObject({ kind: 'problem', field: 'ends' });
    expect(form({ repeat: 'weeks', ends: 'next year' })).toMatchObject({ kind: 'problem', field: 'ends' });
  });
});
