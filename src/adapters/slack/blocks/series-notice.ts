/**
 * The notice before a series' run, in its thread: "Next run tomorrow 09:00: 1,200.00 USDC to
 * Acme payroll wallet" and a Skip this run button naming that run (series-actions.ts). Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { RequestRecord } from '../../../domain/request.js';
import { sealedRunNotice } from '../../../domain/series.js';
import { destinationWords } from './card-summary.js';
import { plain, section } from './common.js';
import { SERIES_ACTIONS, skipRunValue } from './series-actions.js';

/** The text and blocks, or undefined for a record that is not a series of one payment. */
export function runNoticeMessage(
  record: Pick<RequestRecord, 'sealed'>,
  run: { k: number; when: string },
): { text: string; blocks: KnownBlock[] } | undefined {
  // The destination is escaped by destinationWords; the rest is ours.
  const line = sealedRunNotice(record.sealed, run.when, destinationWords(record.sealed));
  if (line === undefined) return undefined;
  return {
    text: `${line} — Skip this run`,
    blocks: [
      section(line),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: SERIES_ACTIONS.skipRun,
            text: plain('Skip this run'),
            value: skipRunValue(record.sealed.id, run.k),
          },
        ],
      },
    ],
  };
}
