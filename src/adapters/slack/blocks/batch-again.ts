/**
 * Request again: the button under a finished batch's summary, and the
 * modal that shows the re-checked rows (rows, total, errors) before a new card is posted; also
 * the "checking…" view a form shows while a check runs past Slack's 3 s. Pure builders.
 */
import type { KnownBlock, View } from '@slack/types';
import { z } from 'zod';
import type { CheckBatchOutcome, CheckedBatch } from '../../../app/check-batch.js';
import { shortAddress } from '../../../domain/address.js';
import { formatAmount } from '../../../domain/amount.js';
import { type BatchFacts, rowList } from '../../../domain/batch-approval.js';
import { oneLine } from '../../../domain/free-text.js';
import { plural } from '../../../domain/words.js';
import { encodeMetadata } from '../metadata.js';
import { context, esc, plain, section } from './common.js';

export const BATCH_AGAIN_ACTION = 'batch_request_again';
export const BATCH_AGAIN_CALLBACK = 'batch_again_modal';
export const batchAgainMetaSchema = z.object({ id: z.string(), channel: z.string().optional() });

/** How many rows and problems a modal lists (Slack: 3,000 characters a section). */
const SHOWN = 10;

/** The summary with, when some rows failed or were cancelled, the button to request them again. */
export function finishedBlocks(summary: string, id: string, againRows: number): KnownBlock[] {
  const blocks = [section(summary)];
  if (againRows === 0) return blocks;
  blocks.push({
    type: 'actions',
    block_id: `again-${id}`,
    elements: [
      {
        type: 'button',
        action_id: BATCH_AGAIN_ACTION,
        text: plain(`Request again (${plural(againRows, 'row')})`, 75),
        accessibility_label: `Request ${plural(againRows, 'row')} of ${id} again`,
        value: id,
      },
    ],
  } as KnownBlock);
  blocks.push(
    context(
      'The requester can ask for the failed and cancelled rows again as a new batch, checked again and approved again. Rows whose outcome is unknown are never included.',
    ),
  );
  return blocks;
}

/** The view a form shows while its check runs after the ack (no submit button). */
export function checkingModal(title: string, what: string, meta = '{}'): View {
  return {
    type: 'modal',
    callback_id: 'batch_checking',
    private_metadata: meta,
    title: plain(title, 24),
    close: plain('Close', 24),
    blocks: [
      section(`:hourglass_flowing_sand: *Checking…* ${esc(what)}`),
      context('This form changes when the check is done. If you close it, the result comes as a message.'),
    ],
  };
}

export interface AgainRowView {
  row: number;
  destination: string;
  amount: string;
  reference?: string;
  state: string;
}

function rowLines(id: string, rows: readonly AgainRowView[], code: string): string {
  const lines = rows
    .slice(0, SHOWN)
    .map(
      (r, i) =>
        `row ${i + 2} · ${shortAddress(r.destination)} · ${r.amount} ${code}${r.reference ? ` · ${oneLine(r.reference)}` : ''} (row ${r.row} of ${id}, ${r.state})`,
    );
  const more = rows.length - SHOWN;
  return `${lines.join('\n')}${more > 0 ? `\n…and ${more} more` : ''}`;
}

/** The rows re-checked: what the new batch will be, and a submit that posts its card. */
export function againConfirmModal(
  id: string,
  rows: readonly AgainRowView[],
  c: CheckedBatch,
  meta: { channel?: string | undefined },
): View {
  const code = c.asset.code;
  const amount = (a: CheckedBatch['total']) => `${formatAmount(a)} ${code}`;
  return {
    type: 'modal',
    callback_id: BATCH_AGAIN_CALLBACK,
    private_metadata: encodeMetadata({ id, ...meta }, { id }),
    title: plain('Request again', 24),
    submit: plain('Submit for approval', 24),
    close: plain('Cancel', 24),
    blocks: [
      section(
        `*A new batch of ${plural(rows.length, c.batchKind === 'transfers' ? 'transfer' : 'offramp')}* from the rows of ${esc(id)} that failed or were cancelled, checked again just now.`,
      ),
      section(
        [
          `*From:* ${esc(c.walletAlias)}  ·  *Asset:* ${esc(c.asset.id)}`,
          `*Rows:* ${c.rows.length}  ·  *Total:* ${amount(c.total)}  ·  *Largest:* row ${c.largest.row}, ${amount(c.largest.amount)}`,
          `*Available now:* ${amount(c.availableNow)} → *after this batch:* ${amount(c.availableAfter)}`,
          ...(c.velocityNote ? [`*Velocity:* ${esc(c.velocityNote)}`] : []),
        ].join('\n'),
      ),
      // The rows carry the file's own words (references): plain text.
      { type: 'section', text: plain(`Rows:\n${rowLines(id, rows, code)}`, 3000) },
      context('Submitting posts a new card: it needs approving again, like any batch.'),
    ],
  };
}

/** The rows no longer pass a check: every problem, and no submit. */
export function againInvalidModal(
  id: string,
  rows: readonly AgainRowView[],
  problems: Exclude<CheckBatchOutcome, { kind: 'checked' }> | { kind: 'text'; text: string },
): View {
  const lines =
    problems.kind === 'invalid'
      ? [
          ...problems.fileErrors,
          ...problems.rowErrors.map((e) => `${e.message} (row ${rows[e.row - 2]?.row ?? '?'} of ${id})`),
        ]
      : [problems.kind === 'text' ? problems.text : 'The wallet could not be checked just now; try again in a moment.'];
  const shown = lines.slice(0, SHOWN).map((l) => `• ${esc(l)}`);
  const more = lines.length - shown.length;
  const bad = problems.kind === 'invalid' ? [...new Set(problems.rowErrors.map((e) => rows[e.row - 2]?.row ?? 0))] : [];
  return {
    type: 'modal',
    title: plain('Request again', 24),
    close: plain('Close', 24),
    blocks: [
      section(`*The rows of ${esc(id)} cannot be requested again as they are.* Nothing was submitted.`),
      section(`${shown.join('\n')}${more > 0 ? `\n…and ${more} more` : ''}`.slice(0, 2900)),
      ...(bad.length > 0
        ? [context(`Fix ${rowList(bad)} of ${esc(id)} in a new file and upload it with \`/batch\`.`)]
        : []),
    ],
  };
}

/**
 * A created batch's lookalike rows, for the form's last word after "Checking…" ("row 7: lookalike
 * of Acme payroll wallet 0x99ED…EdcF"): its card asks each approver to confirm them on Approve.
 * Empty when no row looks like a known destination.
 */
export function lookalikeRows(b: Pick<BatchFacts, 'lookalikes'> | undefined): string {
  const rows = b?.lookalikes ?? [];
  if (rows.length === 0) return '';
  const named = rows.slice(0, SHOWN).map((l) => `• row ${l.row}: lookalike of ${esc(l.of)}`);
  const more = rows.length - named.length;
  return `\n:warning: *Lookalikes:* approvers confirm each of these on Approve (same first 6 and last 4 characters as a known destination):\n${named.join('\n')}${more > 0 ? `\n…and ${more} more` : ''}`;
}

/** A form's last word: what it became. */
export function noticeModal(title: string, text: string): View {
  return { type: 'modal', title: plain(title, 24), close: plain('Close', 24), blocks: [section(text.slice(0, 3000))] };
}
