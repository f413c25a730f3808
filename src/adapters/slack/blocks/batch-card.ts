/**
 * A batch's card: kind, wallet, asset, rows, total, largest row, the approvalHash
 * label, the rule the TOTAL falls under, available now → after, a preview of the first rows
 * (the full rows are a CSV in the thread), then its progress; Approve/Deny while pending,
 * Resume/Stop once approved. Pure builders.
 */
import type { KnownBlock } from '@slack/types';
import type { BatchFacts } from '../../../domain/batch-approval.js';
import { assetWords, rowAmount } from '../../../domain/batch-money.js';
import { batchStatusWords } from '../../../domain/batch-status.js';
import { oneLine } from '../../../domain/free-text.js';
import type { RequestRecord } from '../../../domain/request.js';
import { summaryLine } from './card-summary.js';
import { pendingTimeBlocks, waitingBlocks } from './card-time.js';
import { type Blocks, context, esc, header, plain, screeningBlocks, section, slackDate, wordsBlock } from './common.js';
import { unknownOutcomeBlocks } from './not-paid.js';
import { batchWarningLines } from './repeat-lines.js';

export const BATCH_ACTIONS = { resume: 'batch_resume', stop: 'batch_stop' } as const;

const KIND = { transfers: 'Batch of transfers', offramps: 'Batch of offramps' } as const;

function statusLine(record: RequestRecord, frozen: boolean): string {
  const c = record.counts;
  switch (record.approvalState) {
    case 'pending':
      return frozen
        ? ':octagonal_sign: On hold: Rampart is frozen, so this cannot be approved now'
        : ':hourglass_flowing_sand: Waiting for approval';
    case 'approved':
    case 'running':
      // Redrawn on state changes only; the count lives in the thread's progress message.
      if (frozen) return ':octagonal_sign: Approved, held: Rampart is frozen: progress in the thread';
      return `:gear: Running, one row at a time: progress in the thread`;
    case 'paused':
      return `:double_vertical_bar: *${esc(batchStatusWords(record) ?? 'Paused')}*${c.unknown > 0 ? ' — check it with the service and Record outcome; an approver other than the requester resumes, or anyone stops' : ''}`;
    case 'stopping':
      return `:black_square_for_stop: ${esc(batchStatusWords(record) ?? 'Stopping')}`;
    case 'done':
      return `${c.unknown > 0 ? ':rotating_light:' : ':checkered_flag:'} *${esc(batchStatusWords(record) ?? 'Finished')}*`;
    case 'denied':
      return `:no_entry_sign: Denied by <@${record.decidedBy}>`;
    case 'cancelled':
      return ':heavy_multiplication_x: Cancelled';
    case 'expired':
      return ':alarm_clock: Expired without enough approvals';
  }
}

function factLines(record: RequestRecord, b: BatchFacts): string {
  const f = record.sealed;
  const code = f.display.assetCode ?? '';
  const asset = 'asset' in f.call.body ? f.call.body.asset : '';
  // The balance was read when the batch was submitted; once decided it is no longer "now".
  const when = record.approvalState === 'pending' ? 'now' : 'at submission';
  return [
    `*Kind:* ${b.kind}  ·  *From:* ${esc(f.display.walletAlias ?? '')}  ·  *Asset:* ${esc(assetWords(asset, code))}`,
    `*Rows:* ${b.rows}  ·  *Total:* ${esc(f.display.amountText ?? b.total)} ${code}  ·  *Largest:* row ${b.largest.row}, ${rowAmount(b.largest.amount, asset)} ${code}`,
    `*Available ${when}:* ${f.display.availableBefore ?? b.availableNow} ${code} → *after this batch:* ${f.display.availableAfter ?? b.availableAfter} ${code}`,
    ...(f.velocityNote ? [`*Velocity:* ${esc(f.velocityNote)}`] : []),
  ].join('\n');
}

/** A batch from the HTTP API names its key; the key's owner is the requester. */
const requestedBy = (f: RequestRecord['sealed']): string =>
  f.display.viaApi
    ? `*Requested via API key* *${esc(f.display.viaApi.keyName)}* (owner <@${f.requester}>)`
    : `*Requested by:* <@${f.requester}>`;

/** Whole lines only, within a section's 3,000 characters. */
function withinSection(lines: readonly string[]): string {
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > 2_900) {
      kept.push(`…and ${lines.length - kept.length} more warnings`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}

/** `spoken`: what a screen reader says, naming the batch (cards of several batches share a channel). */
const button = (actionId: string, label: string, id: string, spoken: string, style?: 'primary' | 'danger') => ({
  type: 'button',
  action_id: actionId,
  text: plain(label, 75),
  accessibility_label: spoken,
  value: id,
  ...(style ? { style } : {}),
});

/** Stop's confirmation counts what it cancels: "7 unsent rows will be cancelled". */
function stopWords(record: RequestRecord): string {
  const n = record.counts.queued;
  const rows = n === 1 ? '1 unsent row' : `${n} unsent rows`;
  return `${rows} will be cancelled. Rows already sent stay as they are (${record.counts.succeeded} paid so far).`;
}

function controls(record: RequestRecord): KnownBlock[] {
  const id = record.sealed.id;
  const stop = {
    ...button(BATCH_ACTIONS.stop, 'Stop', id, `Stop batch ${id}: cancel its unsent rows`, 'danger'),
    confirm: {
      title: plain('Stop this batch?', 100),
      text: plain(stopWords(record), 300),
      confirm: plain('Stop', 30),
      deny: plain('Back', 30),
    },
  };
  const s = record.approvalState;
  if (s === 'paused')
    return [
      {
        type: 'actions',
        block_id: `batch-${id}`,
        elements: [button(BATCH_ACTIONS.resume, 'Resume', id, `Resume batch ${id}`, 'primary'), stop],
      } as KnownBlock,
    ];
  if (s === 'approved' || s === 'running')
    return [{ type: 'actions', block_id: `batch-${id}`, elements: [stop] } as KnownBlock];
  return [];
}

const FINAL: ReadonlySet<RequestRecord['approvalState']> = new Set(['done', 'denied', 'cancelled', 'expired']);

/**
 * A finished batch's card shrinks as a single card does: its outcome, one summary line, the
 * people, the file and the hash; unknown rows keep their Record outcome buttons.
 */
function finalBlocks(record: RequestRecord, b: BatchFacts, approvers?: readonly string[]): KnownBlock[] {
  const f = record.sealed;
  const by = record.votes.map((v) => `<@${v.user}>${v.passkey ? ' with passkey' : ''}`).join(', ');
  return [
    header(`${KIND[b.kind]} ${f.id}`),
    section(statusLine(record, false)),
    section(
      `${summaryLine(f)}\n*Requested by:* <@${f.requester}>${by ? `\n*Approved by:* ${by}` : ''}${record.approvalState === 'done' ? '\nEvery row and what happened to it: the receipt in this thread' : ''}`,
    ),
    wordsBlock('File', b.fileName),
    wordsBlock('Reason', f.reason),
    ...(record.approvalState === 'denied' && record.denyReason
      ? [wordsBlock('Reason to deny', record.denyReason)]
      : []),
    context(`Approval hash \`${f.hash}\` · what ran is exactly these ${b.rows} rows`),
    ...unknownOutcomeBlocks(record, approvers),
  ];
}

/**
 * `pendingButtons` are the single request's Approve/Deny/Cancel (card.ts), passed in so both
 * cards share one set of actions.
 */
export function batchCardBlocks(
  record: RequestRecord,
  b: BatchFacts,
  frozen: boolean,
  pendingButtons: KnownBlock | undefined,
  approvers?: readonly string[],
): Blocks {
  const f = record.sealed;
  if (FINAL.has(record.approvalState)) return finalBlocks(record, b, approvers);
  const votes = record.votes.map((v) => `<@${v.user}> ✓`).join(', ');
  const blocks: KnownBlock[] = [
    header(`${KIND[b.kind]} ${f.id}`),
    section(statusLine(record, frozen)),
    // When it runs (a cancel window or a set time), and the Cancel while it waits.
    ...pendingTimeBlocks(record),
    ...waitingBlocks(record),
    section(factLines(record, b)),
    ...screeningBlocks(f.display.screening),
    wordsBlock('File', b.fileName), // named by the requester: their words
    section(requestedBy(f)),
    wordsBlock('Reason', f.reason),
    ...(record.approvalState === 'denied' && record.denyReason
      ? [wordsBlock('Reason to deny', record.denyReason)]
      : []),
    section(
      `*Rule (by the total):* ${esc(f.rule)}\n*Approvals:* ${record.votes.length} of ${f.requiredApprovals}${votes ? `: ${votes}` : ''}${record.approvalState === 'pending' ? `\n*Expires:* ${slackDate(f.expiresAt)}` : ''}`,
    ),
  ];
  const warnings = batchWarningLines(b, f.createdAt, f.display.viaApi !== undefined);
  if (record.approvalState === 'pending' && warnings.length > 0) blocks.push(section(withinSection(warnings)));
  if (record.approvalState === 'pending' && b.preview.length > 0) {
    const more =
      b.rows > b.preview.length
        ? `\n…and ${b.rows - b.preview.length} more: every row is in the CSV in this thread`
        : '';
    // The rows carry the file's own words (references, beneficiaries as written): plain text.
    blocks.push({
      type: 'section',
      text: plain(`Rows, flagged first:\n${b.preview.map(oneLine).join('\n')}${more}`, 3000),
    });
  }
  blocks.push(context(`Approval hash \`${f.hash}\` · what runs is exactly these ${b.rows} rows, one at a time`));
  if (record.approvalState === 'pending' && pendingButtons) blocks.push(pendingButtons);
  blocks.push(...controls(record));
  blocks.push(...unknownOutcomeBlocks(record, approvers));
  return blocks;
}
