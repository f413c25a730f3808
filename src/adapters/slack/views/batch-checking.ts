/**
 * A /batch upload's check: download the picked CSV with the bot token and run
 * the batch check (deps.app.batches.check). When it does not fit Slack's 3 s (a slow file download, a slow service), the form
 * is acked with a "checking…" view and this same work's answer arrives by views.update: the
 * errors above an empty file field, or the submitted batch. The full list of problems always
 * reaches the requester: by message when it does not fit the form, by direct message when the
 * form was closed meanwhile.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { CheckBatchOutcome } from '../../../app/check-batch.js';
import { DeadlineError } from '../../../app/deadline.js';
import { describeError } from '../../../app/describe-error.js';
import type { BatchKind } from '../../../domain/batch-cells.js';
import { MAX_BATCH_FILE_BYTES } from '../../../domain/batch-file.js';
import { BATCH_FILE_TYPES, batchFieldError, batchProblemMessages } from '../blocks/batch-modal.js';
import type { Deps } from '../deps.js';
import { downloadSubmittedFile } from '../files.js';

/** A download gets this long in all, past the ack too (the form shows "checking…" meanwhile). */
export const DOWNLOAD_MS = 10_000;

export interface Upload {
  kind: BatchKind;
  wallet: string;
  asset: string;
  fileId: string;
}

export type UploadChecked =
  | { kind: 'download-failed'; problem: string }
  | { kind: 'checked'; name: string; outcome: CheckBatchOutcome };

/** Never rejects: every failure is a sentence for the form. */
export async function checkUpload(deps: Deps, client: WebClient, u: Upload): Promise<UploadChecked> {
  try {
    const fileDeps = { client, botToken: deps.config.slack.botToken, apiUrl: deps.config.slack.apiUrl, log: deps.log };
    const limits = { maxBytes: MAX_BATCH_FILE_BYTES, timeoutMs: DOWNLOAD_MS, types: BATCH_FILE_TYPES };
    const got = await downloadSubmittedFile(fileDeps, u.fileId, limits);
    if (!got.ok) return { kind: 'download-failed', problem: got.problem };
    const outcome = await deps.app.batches.check({ kind: u.kind, wallet: u.wallet, asset: u.asset, bytes: got.bytes });
    return { kind: 'checked', name: got.name, outcome };
  } catch (err) {
    return { kind: 'checked', name: 'the file', outcome: { kind: 'unchecked', error: err } };
  }
}

/** To the requester only: ephemeral where /batch was typed, else (or with `direct`) a direct message. */
export async function sendToRequester(
  client: WebClient,
  deps: Deps,
  user: string,
  channel: string | undefined,
  blocks: KnownBlock[],
  direct = false,
): Promise<void> {
  const text = 'Your batch file';
  try {
    if (direct || !channel) throw new Error('a direct message was asked for');
    await client.chat.postEphemeral({ channel, user, blocks, text });
  } catch (err) {
    if (!direct && channel)
      deps.log.warn({ err }, 'batch answer not shown in the channel; sending it by direct message');
    await client.chat.postMessage({ channel: user, blocks, text }).catch((e: unknown) => {
      deps.log.error({ err: e }, 'a batch answer could not reach the requester');
    });
  }
}

/** Every problem, in as many messages as it takes. */
export async function sendProblems(
  client: WebClient,
  deps: Deps,
  user: string,
  channel: string,
  fileName: string,
  problems: readonly string[],
  direct = false,
): Promise<void> {
  for (const blocks of batchProblemMessages(fileName, problems))
    await sendToRequester(client, deps, user, channel, blocks, direct);
}

const uncheckedText = (err: unknown): string =>
  err instanceof DeadlineError
    ? 'The wallet service is slow to answer, so the balance could not be checked; submit again in a moment.'
    : describeError(err);

/** What the form says about a checked upload, or the batch to submit. */
export type Verdict =
  | { kind: 'problem'; field: 'file' | 'wallet'; text: string; all: string[]; fits: boolean; name: string }
  | {
      kind: 'submit';
      checked: Extract<UploadChecked, { kind: 'checked' }>['outcome'] & { kind: 'checked' };
      name: string;
    };

export function verdict(deps: Deps, r: UploadChecked): Verdict {
  const one = (field: 'file' | 'wallet', text: string, name = 'the file'): Verdict => ({
    kind: 'problem',
    field,
    text,
    all: [text],
    fits: true,
    name,
  });
  if (r.kind === 'download-failed') return one('file', r.problem);
  const o = r.outcome;
  if (o.kind === 'unchecked') return one('wallet', uncheckedText(o.error), r.name);
  if (o.kind === 'invalid') {
    const field = batchFieldError(o.fileErrors, o.rowErrors);
    const all = [...o.fileErrors, ...o.rowErrors.map((e) => e.message)];
    return { kind: 'problem', field: 'file', text: field.text, all, fits: field.fits, name: r.name };
  }
  // The policy is pure: a total no rule allows is said on the form.
  const policy = deps.app.batches.policy(o);
  if (!policy.ok) return one('file', `This batch cannot be approved: ${policy.reason}.`, r.name);
  return { kind: 'submit', checked: o, name: r.name };
}
