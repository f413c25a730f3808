/**
 * A series' schedule as the request forms take it: a repeat choice (every N days, every N weeks,
 * monthly on a day), the number or day, the time with its zone ("09:00 Africa/Lagos"), how it
 * ends ("12 runs" or a last date) and the first date. Read into what sealSchedule judges
 * (domain/schedule.ts); what only the form can get wrong is one sentence on its own field. Pure.
 */

import type { ScheduleField, ScheduleInput } from './schedule.js';
import type { Every } from './schedule-dates.js';

export type RepeatChoice = 'once' | 'days' | 'weeks' | 'month';

export interface ScheduleFormText {
  repeat: RepeatChoice | undefined;
  /** N for days and weeks (empty: 1), the day of the month for monthly. */
  every: string | undefined;
  /** "09:00" or "09:00 Africa/Lagos". */
  at: string | undefined;
  /** "12", "12 runs", "after 12 runs", "2027-11-30" or "on 2027-11-30". */
  ends: string | undefined;
  /** The first date a run may fall on (YYYY-MM-DD); empty: the day it is submitted. */
  from: string | undefined;
}

/** A form field: sealSchedule's fields, and the repeat choice itself. */
export type ScheduleFormField = ScheduleField | 'repeat';

export type ScheduleFormOutcome =
  | { kind: 'once' }
  | { kind: 'series'; input: ScheduleInput }
  | { kind: 'problem'; field: ScheduleFormField; message: string };

const problem = (field: ScheduleFormField, message: string): ScheduleFormOutcome => ({
  kind: 'problem',
  field,
  message,
});

const blank = (s: string | undefined) => (s ?? '').trim() === '';

/** "31", "31st", "the 31st"; NaN for anything else, so sealSchedule's sentence names the field. */
function dayOf(text: string): number {
  const m = /^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?$/i.exec(text.trim());
  return m ? Number(m[1]) : Number.NaN;
}

/** "2", or empty for 1; NaN for anything else. */
function countOf(text: string | undefined): number {
  if (blank(text)) return 1;
  return /^\d{1,4}$/.test((text ?? '').trim()) ? Number((text ?? '').trim()) : Number.NaN;
}

function endsOf(text: string): ScheduleInput['ends'] | undefined {
  const t = text.trim().toLowerCase();
  const runs = /^(?:after\s+)?(\d{1,4})(?:\s+runs?)?$/.exec(t);
  if (runs) return { after: Number(runs[1]) };
  const date = /^(?:on\s+|until\s+)?(\d{4}-\d{2}-\d{2})$/.exec(t);
  return date ? { on: date[1] as string } : undefined;
}

/**
 * The form's repeat fields as a schedule, `zone` filling in a time written without one. A
 * repeat left at "once" with the other repeat fields empty is a single payment.
 */
export function readScheduleForm(f: ScheduleFormText, zone: string): ScheduleFormOutcome {
  if (f.repeat === undefined || f.repeat === 'once') {
    // The time field is pre-filled with the team's zone, so only these say a series was meant.
    if (!blank(f.every) || !blank(f.ends))
      return problem('repeat', 'Choose how often it repeats, or empty the Every and Ends fields for a single payment.');
    return { kind: 'once' };
  }
  const every: Every =
    f.repeat === 'month' ? { unit: 'month', day: dayOf(f.every ?? '') } : { unit: f.repeat, n: countOf(f.every) };
  if (f.repeat === 'month' && blank(f.every))
    return problem('every', 'Write the day of the month each run falls on, from 1 to 31, for example 1.');
  const [at, ...rest] = (f.at ?? '').trim().split(/\s+/);
  if (blank(f.ends))
    return problem('ends', 'Say when the series ends: a number of runs (for example 12) or a last date (2027-11-30).');
  const ends = endsOf(f.ends ?? '');
  if (!ends)
    return problem(
      'ends',
      'Write how the series ends as a number of runs (for example 12) or a last date as YYYY-MM-DD (2027-11-30).',
    );
  return {
    kind: 'series',
    input: {
      every,
      at: at || undefined,
      zone: rest.join(' ') || zone,
      ends,
      from: blank(f.from) ? undefined : f.from?.trim(),
    },
  };
}
