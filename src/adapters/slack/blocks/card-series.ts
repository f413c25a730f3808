/**
 * A series' lines on its card: the one sentence that says what it pays and when ("Monthly on the
 * 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to …, 14,400.00 in all; first run
 * 2026-12-01"), and once approved whether it is live or ended. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { RequestRecord } from '../../../domain/request.js';
import { localTimeText } from '../../../domain/schedule-words.js';
import { sealedSeriesSentence } from '../../../domain/series.js';
import { destinationWords } from './card-summary.js';
import { plain, section } from './common.js';
import { SERIES_ACTIONS, skipRunValue } from './series-actions.js';

/** The card's sentence, or undefined for anything but a series of one sealed payment. */
export const seriesLine = (record: Pick<RequestRecord, 'shape' | 'sealed'>): string | undefined =>
  record.shape === 'series' ? sealedSeriesSentence(record.sealed, destinationWords(record.sealed)) : undefined;

// A live series reads as approved to the view states; its own state says whether runs still come.
const SERIES_STATUS: Record<string, string> = {
  live: ':repeat: Live: each run is created at its time and re-checked against today’s rules',
  ended: ':checkered_flag: Ended: no more runs will be created',
};

/** A live or ended series' status, in place of "Approved, queued to run" (it has no execution). */
export const seriesStatus = (record: RequestRecord): string | undefined =>
  record.shape === 'series' ? SERIES_STATUS[record.approvalState as string] : undefined;

/** The sentence (its destination already escaped by destinationWords; the rest is ours). */
export function seriesBlocks(record: RequestRecord): KnownBlock[] {
  const line = seriesLine(record);
  return line === undefined ? [] : [section(`*Series:* ${line}`)];
}

/** The next run still to come of a live series: run k, at `at` (epoch ms). */
export interface NextRun {
  k: number;
  at: number;
}

/** "2026-12-01 09:00 Africa/Lagos": a run's time as its series writes it (plain text, for a confirm). */
export const runTimeText = (at: number, zone: string) => `${localTimeText(at, zone)} ${zone}`;

/**
 * Slack refuses a message or view whose action ids repeat, so where several series show (the
 * /schedules list, App Home) each button's id carries what it names after the fixed id and a
 * colon; the handlers answer both forms (actions/series.ts).
 */
export const listedActionId = (action: string, key: string) => `${action}:${key}`;

/** Skip run k, with Slack's confirmation naming the run and its time; `listed`: one of several. */
export function skipRunButton(seriesId: string, run: NextRun, zone: string, text = 'Skip next run', listed = false) {
  const when = runTimeText(run.at, zone);
  const value = skipRunValue(seriesId, run.k);
  return {
    type: 'button' as const,
    action_id: listed ? listedActionId(SERIES_ACTIONS.skipRun, value) : SERIES_ACTIONS.skipRun,
    text: plain(text, 75),
    value,
    accessibility_label: `Skip run ${run.k} of ${seriesId}, ${when}`,
    confirm: {
      title: plain('Skip this run?', 100),
      text: plain(`Run ${run.k} of ${seriesId}, ${when}, is not created and sends nothing. The series goes on.`, 300),
      confirm: plain('Skip run', 30),
      deny: plain('Back', 30),
    },
  };
}

/** End the series: no more runs, and a created but unsent run is cancelled in the same step. */
export const endSeriesButton = (seriesId: string, listed = false) => ({
  type: 'button' as const,
  action_id: listed ? listedActionId(SERIES_ACTIONS.end, seriesId) : SERIES_ACTIONS.end,
  style: 'danger' as const,
  text: plain('End series', 75),
  value: seriesId,
  accessibility_label: `End series ${seriesId}`,
  confirm: {
    title: plain('End this series?', 100),
    text: plain(
      `No more runs of ${seriesId} are created; a run created but not yet sent is cancelled. This cannot be undone.`,
      300,
    ),
    confirm: plain('End series', 30),
    deny: plain('Back', 30),
    style: 'danger' as const,
  },
});

/**
 * A live series' buttons on its card: Skip next run (when one is still to come; `next` as read when
 * the card is drawn) and End series. None once it ended or before its approval.
 */
export function seriesActionBlocks(record: RequestRecord, next: NextRun | undefined): KnownBlock[] {
  if (record.shape !== 'series' || (record.approvalState as string) !== 'live') return [];
  const zone = record.sealed.schedule?.zone ?? 'UTC';
  const id = record.sealed.id;
  return [
    {
      type: 'actions',
      block_id: 'series_actions',
      elements: [...(next ? [skipRunButton(id, next, zone)] : []), endSeriesButton(id)],
    } as KnownBlock,
  ];
}
