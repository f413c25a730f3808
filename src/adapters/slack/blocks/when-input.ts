/** The forms' When field: now (empty) or a date and time read in SCHEDULE_ZONE (docs/time.md). Pure. */
import type { KnownBlock } from '@slack/types';
import { input, plain } from './common.js';

/** `what`: the words for what waits ("it runs", "the rows run"); `extra`: a last clause, if any. */
export const whenInput = (what: string, extra = ''): KnownBlock =>
  input(
    'when',
    'When',
    { type: 'plain_text_input', placeholder: plain('now, or 2026-12-04 09:00') },
    {
      optional: true,
      hint: plain(
        `Empty: ${what} once approved. Or a date and time not to start before (YYYY-MM-DD HH:MM, in Rampart’s schedule zone, UTC unless set otherwise)${extra}.`,
        2000,
      ),
    },
  );
