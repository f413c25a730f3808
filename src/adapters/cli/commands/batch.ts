/**
 * `rampart batch check|status|receipt`. `check FILE --kind K --wallet W --asset A`:
 * the same checks /batch runs on an upload — the file's rules and the live facts (wallet, balance,
 * beneficiaries, velocity) — with nothing created and nothing sent. Exit 1 lists every problem
 * in the sentences Slack shows; exit 0 prints a summary.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CheckedBatch } from '../../../app/check-batch.js';
import { describeError } from '../../../app/describe-error.js';
import { formatAmount } from '../../../domain/amount.js';
import { BATCH_KINDS, type BatchKind } from '../../../domain/batch-cells.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import type { Context } from '../context.js';
import { batchStatus, batchStatusText, executionValues, pausedReason } from '../format-batch.js';
import { CliError, UsageError } from '../problems.js';

export async function readBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new CliError(code === 'ENOENT' ? `There is no file ${file}.` : `${file} cannot be read (${String(code)}).`);
  }
}

function summary(file: string, c: CheckedBatch): string {
  const code = c.asset.code;
  const amount = (a: CheckedBatch['total']) => `${formatAmount(a)} ${code}`;
  return [
    `${basename(file)} passes every check: ${c.rows.length} ${c.batchKind} from ${c.walletAlias} in ${c.asset.id}; nothing was created or sent.`,
    `  total ${amount(c.total)}; largest row ${c.largest.row}: ${amount(c.largest.amount)}`,
    `  available now ${amount(c.availableNow)}; after this batch ${amount(c.availableAfter)}`,
    ...(c.velocityNote ? [`  velocity: ${c.velocityNote}`] : []),
    `  file fingerprint ${c.fileFingerprint.slice(0, 16)}`,
  ].join('\n');
}

async function check(ctx: Context, file: string, kind: BatchKind, wallet: string, asset: string): Promise<void> {
  const bytes = await readBytes(file);
  const outcome = await (await ctx.app()).batches.check({ kind, wallet, asset, bytes });
  if (outcome.kind === 'unchecked')
    throw new CliError(`The wallet could not be checked: ${describeError(outcome.error)}`);
  if (outcome.kind === 'invalid') {
    const lines = [...outcome.fileErrors, ...outcome.rowErrors.map((e) => e.message)];
    for (const line of lines) ctx.note(line);
    throw new CliError(
      `${lines.length} problem${lines.length === 1 ? '' : 's'} in ${basename(file)}; fix ${lines.length === 1 ? 'it' : 'every one'} and check again.`,
    );
  }
  ctx.answer(summary(file, outcome), {
    file: basename(file),
    kind: outcome.batchKind,
    wallet: outcome.walletAlias,
    asset: outcome.asset.id,
    rows: outcome.rows.length,
    total: formatAmount(outcome.total),
    largestRow: outcome.largest.row,
    availableNow: formatAmount(outcome.availableNow),
    availableAfter: formatAmount(outcome.availableAfter),
    fileFingerprint: outcome.fileFingerprint,
  });
}

export const batchCheckCommand: Command = {
  words: ['batch', 'check'],
  args: '<FILE.csv> --kind transfers|offramps --wallet <alias> --asset <chain:token>',
  summary: [
    'Check a batch payout file as /batch would, without creating or sending anything: UTF-8 CSV,',
    '      a header row; transfers: receiver,amount[,reference]; offramps: beneficiary,amount[,reference]',
    "      (an approved beneficiary's id or unique label). Every problem is listed by row (the header",
    '      is row 1); exit 1 when there is any, exit 0 with the total and balances when there is none.',
    '      See docs/batch-payouts.md.',
  ].join('\n'),
  options: { kind: { type: 'string' }, wallet: { type: 'string' }, asset: { type: 'string' } },
  prepare(input) {
    const [file = ''] = positionals(input, ['<FILE.csv>']);
    const kind = stringOption(input, 'kind', true).trim().toLowerCase();
    if (!(BATCH_KINDS as readonly string[]).includes(kind))
      throw new UsageError(`--kind "${shorten(kind)}" is not transfers or offramps`);
    const wallet = stringOption(input, 'wallet', true);
    const asset = stringOption(input, 'asset', true);
    return (ctx) => check(ctx, file, kind as BatchKind, wallet, asset);
  },
};

/** A batch's id from the command line, or one sentence saying what one looks like. */
function batchId(input: Parameters<Command['prepare']>[0]): string {
  const [given = ''] = positionals(input, ['<B-id>']);
  const id = given.trim().toUpperCase();
  if (!/^B-\d+$/.test(id)) throw new UsageError(`"${shorten(given)}" is not a batch id such as B-12`);
  return id;
}

/** The batch and every row with its execution's state and outcome. */
async function readBatch(ctx: Context, id: string) {
  const app = await ctx.app();
  const record = await app.reads.request(id);
  if (!record) throw new CliError(`No batch ${id} under REDIS_PREFIX "${ctx.config.redis.prefix}".`);
  return { app, record, rows: await app.batches.rows(record) };
}

export const batchStatusCommand: Command = {
  words: ['batch', 'status'],
  args: '<B-id>',
  summary: "A batch's state, its rows counted by state, why it is paused (when it is) and the total moved so far.",
  prepare(input) {
    const id = batchId(input);
    return async (ctx) => {
      const { app, record, rows } = await readBatch(ctx, id);
      const { batchReceipt } = await import('../../../presenters/batch-receipt.js');
      const paused = pausedReason(record, rows, record.approvalState === 'paused' ? await app.reads.history(id) : []);
      const status = batchStatus(record, batchReceipt(record, rows).moved, paused);
      ctx.answer(batchStatusText(status, record.sealed.display.assetCode ?? ''), status);
    };
  },
};

export const batchReceiptCommand: Command = {
  words: ['batch', 'receipt'],
  args: '<B-id>',
  summary: [
    "A batch's receipt CSV on stdout, the same as the one in its card's thread (formula cells",
    '      neutralised): rampart batch receipt B-12 > receipt.csv. Before the batch has finished,',
    '      rows not yet run show as queued or executing.',
  ].join('\n'),
  prepare(input) {
    const id = batchId(input);
    return async (ctx) => {
      const { record, rows } = await readBatch(ctx, id);
      if (record.approvalState !== 'done')
        ctx.note(`${id} has not finished (it is ${record.approvalState}); rows not yet run show as queued.`);
      const { batchReceipt } = await import('../../../presenters/batch-receipt.js');
      const { csv } = batchReceipt(record, rows);
      // The CSV as is (CRLF lines); --json gives the rows as values.
      ctx.answer(csv.replace(/\r\n$/, ''), executionValues(rows));
    };
  },
};
