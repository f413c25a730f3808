/**
 * The request forms' repeat fields (docs/time.md "Recurring payouts"): once, or every N days,
 * every N weeks, or monthly on a day, at a time in a zone, ending after a number of runs or on a
 * date. Input blocks only, no dispatch: each is read at submit, and a wrong one gets its sentence
 * at its own block. Pure.
 */
import type { KnownBlock, PlainTextOption } from '@slack/types';
import type { RepeatChoice, ScheduleFormField } from '../../../domain/schedule-form.js';
import { input, plain } from './common.js';

export const REPEAT_BLOCKS = {
  repeat: 'repeat',
  every: 'repeat_every',
  at: 'repeat_at',
  ends: 'repeat_ends',
} as const;

/** Where each field of a schedule was typed: the zone is written beside the time; the first date in When. */
export const REPEAT_FIELD_BLOCK: Record<ScheduleFormField, string> = {
  repeat: REPEAT_BLOCKS.repeat,
  every: REPEAT_BLOCKS.every,
  at: REPEAT_BLOCKS.at,
  zone: REPEAT_BLOCKS.at,
  ends: REPEAT_BLOCKS.ends,
  from: 'when',
};

const CHOICES: [RepeatChoice, string][] = [
  ['once', 'Once'],
  ['days', 'Every N days'],
  ['weeks', 'Every N weeks'],
  ['month', 'Monthly on a day'],
];

const option = (value: RepeatChoice, text: string): PlainTextOption => ({ text: plain(text, 75), value });

export const isRepeatChoice = (v: string | undefined): v is RepeatChoice => CHOICES.some(([c]) => c === v);

/** `zone`: the team's (SCHEDULE_ZONE), written beside the time so it can be changed in place. */
export function repeatInputs(zone: string): KnownBlock[] {
  const once = option('once', 'Once');
  return [
    input(
      REPEAT_BLOCKS.repeat,
      'Repeat',
      { type: 'radio_buttons', options: CHOICES.map(([v, t]) => option(v, t)), initial_option: once },
      {
        optional: true,
        hint: plain(
          'A series is approved once, on its total; every run then sends this exact amount and is re-checked against the rules of its day.',
          2000,
        ),
      },
    ),
    input(
      REPEAT_BLOCKS.every,
      'Every / on day',
      { type: 'plain_text_input', placeholder: plain('2 (days or weeks), or 1 to 31 (day of the month)') },
      {
        optional: true,
        hint: plain(
          'Every N days or weeks: N, empty for 1. Monthly: the day of the month; 29 to 31 run on the last day of shorter months.',
          2000,
        ),
      },
    ),
    input(
      REPEAT_BLOCKS.at,
      'Each run at',
      { type: 'plain_text_input', initial_value: `09:00 ${zone}` },
      {
        optional: true,
        hint: plain('HH:MM and a time zone such as Africa/Lagos or Europe/London (IANA names).', 2000),
      },
    ),
    input(
      REPEAT_BLOCKS.ends,
      'Ends',
      { type: 'plain_text_input', placeholder: plain('after 12 runs, or 2027-11-30') },
      {
        optional: true,
        hint: plain('A number of runs, or the last date a run may fall on (YYYY-MM-DD).', 2000),
      },
    ),
  ];
}
