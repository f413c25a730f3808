/**
 * A series' lines on its card: the one sentence that says what it pays and when ("Monthly on the
 * 1st at 09:00 Africa/Lagos, 12 runs, 1,200.00 USDC each to …, 14,400.00 in all; first run
 * 2026-12-01"), and once approved whether it is live or ended. Pure.
 */
import type { KnownBlock } from '@slack/types';
import { amountFromNumber } from '../../../domain/amount.js';
import { assetInfo, parseAssetId } from '../../../domain/assets.js';
import type { RequestRecord } from '../../../domain/request.js';
import { seriesSentence } from '../../../domain/series.js';
import { destinationWords } from './card-summary.js';
import { section } from './common.js';

/** The card's sentence, or undefined for anything but a series of one sealed payment. */
export function seriesLine(record: Pick<RequestRecord, 'shape' | 'sealed'>): string | undefined {
  const f = record.sealed;
  if (record.shape !== 'series' || !f.schedule) return undefined;
  if (f.call.kind !== 'transfer' && f.call.kind !== 'offramp') return undefined;
  const id = parseAssetId(f.call.body.asset);
  if (!id) return undefined;
  const asset = assetInfo(id);
  return seriesSentence({
    schedule: f.schedule,
    perRun: amountFromNumber(f.call.body.amount, asset.decimals),
    assetCode: asset.code,
    to: destinationWords(f),
  });
}

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
