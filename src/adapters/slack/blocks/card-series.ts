/**
 * A series' lines on its card: the one sentence that says what it pays and when ("Monthly on the
 * 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to …, 14,400.00 in all; first run
 * 2026-12-01"), and once approved whether it is live or ended. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { RequestRecord } from '../../../domain/request.js';
import { sealedSeriesSentence } from '../../../domain/series.js';
import { destinationWords } from './card-summary.js';
import { section } from './common.js';

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
