/**
 * What a batch posts in its card's thread (issue 20), for the Slack notifier: the rows file, the
 * pause message and, at the end, the summary with the receipt CSV (domain/batch-receipt.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { BatchRowOutcome, CardRef } from '../app/notifier.js';
import { type Amount, parseAmount } from '../domain/amount.js';
import { assetInfo, parseAssetId } from '../domain/assets.js';
import { type BatchRowRecord, batchSummaryText, rowsCsv } from '../domain/batch-approval.js';
import { receiptCsv } from '../domain/batch-receipt.js';
import type { RequestRecord } from '../domain/request.js';
import { outcomeMessage } from '../presenters/describe-error.js';
import { finishedBlocks } from './blocks/batch-again.js';
import { uploadCsvToThread } from './files.js';

const decimalsOf = (record: RequestRecord): number => {
  const body = record.frozen.call.body as { asset?: string };
  const id = body.asset ? parseAssetId(body.asset) : undefined;
  return id ? assetInfo(id).decimals : 6;
};

export async function uploadRows(
  client: WebClient,
  record: RequestRecord,
  card: CardRef,
  rows: readonly BatchRowRecord[],
) {
  await uploadCsvToThread(client, {
    channel: card.channel,
    threadTs: card.ts,
    filename: `${record.frozen.id}-rows.csv`,
    title: `${record.frozen.id}: the ${rows.length} rows as approved`,
    content: rowsCsv(rows),
  });
}

export function pausedText(record: RequestRecord, unknown: readonly BatchRowOutcome[]): string {
  const rows = unknown.map((r) => `row ${r.row} (${r.executionId})`).join(', ');
  return `:rotating_light: *${record.frozen.id} is PAUSED.* The outcome of ${rows} is UNKNOWN: it may or may not have been paid, and it will never be sent again. Check it with the service first. Then an approver other than the requester presses *Resume* on the card to run the remaining rows, or anyone presses *Stop* to cancel them.`;
}

/** The total moved (succeeded rows) and the receipt CSV: the thread's, and `rampart batch receipt`'s. */
export function batchReceipt(record: RequestRecord, rows: readonly BatchRowOutcome[]): { moved: Amount; csv: string } {
  const kind = record.frozen.display.batch?.kind ?? 'transfers';
  const decimals = decimalsOf(record);
  const amount = (r: BatchRowOutcome): Amount => parseAmount(r.amount, decimals);
  const moved = rows.filter((r) => r.state === 'succeeded').reduce((sum, r) => sum + amount(r).units, 0n);
  const csv = receiptCsv(
    kind,
    rows.map((r) => ({
      row: r.row,
      destination: r.destination,
      amount: amount(r),
      reference: r.reference,
      state: r.state,
      proof: r.outcome?.hash ?? r.outcome?.reference ?? r.outcome?.id,
      error: r.state === 'succeeded' ? undefined : outcomeMessage(r.outcome),
    })),
  );
  return { moved: { units: moved, decimals }, csv };
}

export async function postFinished(
  client: WebClient,
  record: RequestRecord,
  card: CardRef,
  rows: readonly BatchRowOutcome[],
  text: (t: string) => string,
) {
  const kind = record.frozen.display.batch?.kind ?? 'transfers';
  const { moved, csv } = batchReceipt(record, rows);
  const code = record.frozen.display.assetCode ?? '';
  const summary = batchSummaryText(record.frozen.id, kind, record.counts, moved, code);
  // Issue 20: the failed and cancelled rows (never unknown) can be requested again from here.
  const again = record.counts.failed + record.counts.cancelled;
  await client.chat.postMessage({
    channel: card.channel,
    thread_ts: card.ts,
    text: text(summary),
    blocks: finishedBlocks(text(summary), record.frozen.id, again),
    unfurl_links: false,
  });
  await uploadCsvToThread(client, {
    channel: card.channel,
    threadTs: card.ts,
    filename: `${record.frozen.id}-receipt.csv`,
    title: `${record.frozen.id}: receipt`,
    content: csv,
  });
}
