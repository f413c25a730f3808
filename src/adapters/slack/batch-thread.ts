/**
 * What a batch posts in its card's thread, for the Slack notifier: the rows file, the
 * pause message and, at the end, the summary with the receipt CSV (domain/batch-receipt.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { BatchRowOutcome, CardRef } from '../../app/notifier.js';
import { type BatchRowRecord, batchSummaryText, rowsCsv } from '../../domain/batch-approval.js';
import type { RequestRecord } from '../../domain/request.js';
import { batchReceipt } from '../../presenters/batch-receipt.js';
import { finishedBlocks } from './blocks/batch-again.js';
import { uploadCsvToThread } from './files.js';

export async function uploadRows(
  client: WebClient,
  record: RequestRecord,
  card: CardRef,
  rows: readonly BatchRowRecord[],
) {
  await uploadCsvToThread(client, {
    channel: card.channel,
    threadTs: card.ts,
    filename: `${record.sealed.id}-rows.csv`,
    title: `${record.sealed.id}: the ${rows.length} rows as approved`,
    content: rowsCsv(rows),
  });
}

const count = (n: number) => n.toLocaleString('en-US');

const PROGRESS_HEAD: Partial<Record<RequestRecord['approvalState'], string>> = {
  approved: ':gear: Running',
  running: ':gear: Running',
  paused: ':double_vertical_bar: Paused',
  stopping: ':black_square_for_stop: Stopping',
  done: ':checkered_flag: Finished',
};

/** "Running: 212 of 1,000 rows — 205 succeeded, 7 failed". */
export function progressText(record: RequestRecord): string {
  const c = record.counts;
  const ended = c.succeeded + c.failed + c.unknown + c.cancelled;
  const parts = [`${count(c.succeeded)} succeeded`, `${count(c.failed)} failed`];
  if (c.unknown > 0) parts.push(`${count(c.unknown)} outcome unknown`);
  if (c.cancelled > 0) parts.push(`${count(c.cancelled)} cancelled`);
  const head = PROGRESS_HEAD[record.approvalState] ?? ':gear: Running';
  return `${head}: ${count(ended)} of ${count(record.executionCount)} rows — ${parts.join(', ')}`;
}

/** Posts the progress message (no ts yet) or updates it in place; returns its ts. */
export async function postProgress(
  client: WebClient,
  record: RequestRecord,
  card: CardRef,
  ts: string | undefined,
): Promise<string> {
  const body = progressText(record);
  if (ts) {
    await client.chat.update({ channel: card.channel, ts, text: body });
    return ts;
  }
  const posted = await client.chat.postMessage({
    channel: card.channel,
    thread_ts: card.ts,
    text: body,
    unfurl_links: false,
  });
  return posted.ts ?? '';
}

export async function postFinished(
  client: WebClient,
  record: RequestRecord,
  card: CardRef,
  rows: readonly BatchRowOutcome[],
) {
  const { moved, csv } = batchReceipt(record, rows);
  const summary = batchSummaryText(record, moved);
  // The failed and cancelled rows (never unknown) can be requested again from here.
  const again = record.counts.failed + record.counts.cancelled;
  await client.chat.postMessage({
    channel: card.channel,
    thread_ts: card.ts,
    text: summary,
    blocks: finishedBlocks(summary, record.sealed.id, again),
    unfurl_links: false,
  });
  await uploadCsvToThread(client, {
    channel: card.channel,
    threadTs: card.ts,
    filename: `${record.sealed.id}-receipt.csv`,
    title: `${record.sealed.id}: receipt`,
    content: csv,
  });
}
