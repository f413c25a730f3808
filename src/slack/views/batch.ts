/**
 * Submission of the /batch modal (issue 20): download the picked CSV with the bot token, check
 * every row (app/check-batch.ts), and answer on the form — the row errors on the file field
 * (the full list as a message when it does not fit), or, once the file passes, submitBatch.
 * Everything here fits Slack's 3 s ack; nothing reaches the service's money endpoints.
 */
import type { App, ViewStateValue } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { checkBatch } from '../../app/check-batch.js';
import { DeadlineError, withDeadline } from '../../app/deadline.js';
import { announce } from '../../app/post-request.js';
import { batchPolicy, submitBatch } from '../../app/submit-batch.js';
import { BATCH_KINDS, type BatchKind } from '../../domain/batch-cells.js';
import { MAX_BATCH_FILE_BYTES } from '../../domain/batch-file.js';
import { describeError } from '../../presenters/describe-error.js';
import {
  BATCH_CALLBACK,
  BATCH_FILE_TYPES,
  batchFieldError,
  batchMetaSchema,
  batchProblemMessages,
} from '../blocks/batch-modal.js';
import type { Deps } from '../deps.js';
import { downloadSubmittedFile } from '../files.js';
import { readMetadata } from '../metadata.js';

/** Slack allows 3 s: the download gets at most this much, the checks what is left of the budget. */
const DOWNLOAD_MS = 1_200;
const BUDGET_MS = 2_500;

type Values = Record<string, Record<string, ViewStateValue>>;
const selected = (v: Values, block: string) => v[block]?.[block]?.selected_option?.value ?? undefined;
const pickedFiles = z.object({ files: z.array(z.object({ id: z.string(), name: z.string().optional() })).optional() });

const uncheckedText = (err: unknown): string =>
  err instanceof DeadlineError
    ? 'The wallet service is slow to answer, so the balance could not be checked; submit again in a moment.'
    : describeError(err);

/** The full list, to the requester only: ephemeral where /batch was typed, else a direct message. */
async function sendProblems(client: WebClient, deps: Deps, user: string, channel: string, messages: KnownBlock[][]) {
  for (const blocks of messages) {
    const text = 'Problems in your batch file';
    try {
      await client.chat.postEphemeral({ channel, user, blocks, text });
    } catch (err) {
      deps.log.warn({ err }, 'batch problems not shown in the channel; sending them by direct message');
      await client.chat.postMessage({ channel: user, blocks, text }).catch((e: unknown) => {
        deps.log.error({ err: e }, 'the batch problems could not reach the requester');
      });
    }
  }
}

export function registerBatchView(app: App, deps: Deps): void {
  app.view(BATCH_CALLBACK, async ({ ack, view, body, client }) => {
    const started = Date.now();
    const m = readMetadata(batchMetaSchema, view.private_metadata);
    if (!m.ok) return void (await ack({ response_action: 'errors', errors: { file: m.problem } }));
    const v = view.state.values;
    const kind = selected(v, 'kind');
    const wallet = selected(v, 'wallet');
    const asset = selected(v, 'asset');
    const file = pickedFiles.safeParse(v.file?.file).data?.files?.[0];
    const errors: Record<string, string> = {};
    if (!kind || !(BATCH_KINDS as readonly string[]).includes(kind)) errors.kind = 'Choose transfers or offramps.';
    if (!wallet) errors.wallet = 'Choose the wallet to pay from.';
    if (!asset) errors.asset = 'Choose the asset to send.';
    if (!file) errors.file = 'Attach the CSV file; `/batch template` shows its columns.';
    if (Object.keys(errors).length > 0 || !file || !wallet || !asset)
      return void (await ack({ response_action: 'errors', errors }));

    const fileDeps = { client, botToken: deps.config.slack.botToken, apiUrl: deps.config.slack.apiUrl, log: deps.log };
    const limits = { maxBytes: MAX_BATCH_FILE_BYTES, timeoutMs: DOWNLOAD_MS, types: BATCH_FILE_TYPES };
    const got = await downloadSubmittedFile(fileDeps, file.id, limits);
    if (!got.ok) return void (await ack({ response_action: 'errors', errors: { file: got.problem } }));
    const left = Math.max(300, BUDGET_MS - (Date.now() - started));
    const outcome = await checkBatch(
      { ...deps, withinBudget: (work) => withDeadline(work, left) },
      { kind: kind as BatchKind, wallet, asset, bytes: got.bytes },
    );
    if (outcome.kind === 'unchecked')
      return void (await ack({ response_action: 'errors', errors: { wallet: uncheckedText(outcome.error) } }));
    if (outcome.kind === 'invalid') {
      const field = batchFieldError(outcome.fileErrors, outcome.rowErrors);
      await ack({ response_action: 'errors', errors: { file: field.text } });
      if (!field.fits) {
        const all = [...outcome.fileErrors, ...outcome.rowErrors.map((e) => e.message)];
        await sendProblems(client, deps, body.user.id, m.value.channel, batchProblemMessages(got.name, all));
      }
      return;
    }
    const reason = v.reason?.reason?.value?.trim() ?? '';
    // The policy is pure: a total no rule allows is said on the form, before the ack.
    const policy = batchPolicy(deps.config, outcome);
    if (!policy.ok)
      return void (await ack({
        response_action: 'errors',
        errors: { file: `This batch cannot be approved: ${policy.reason}.` },
      }));
    // The create runs after the ack (the checks used most of Slack's 3 s); its result reaches
    // the requester as the card's confirmation, or one sentence where /batch was typed.
    await ack();
    let submitted: Awaited<ReturnType<typeof submitBatch>>;
    try {
      submitted = await submitBatch(deps, {
        checked: outcome,
        requester: body.user.id,
        reason,
        origin: m.value.channel,
        submission: view.id,
        fileName: got.name,
      });
    } catch (err) {
      deps.log.error({ err }, 'a checked batch could not be stored');
      submitted = { kind: 'nothing' };
    }
    if (submitted.kind === 'created') return announce(deps, submitted.frozen);
    if (submitted.kind === 'taken') return;
    const sentence =
      submitted.kind === 'refused'
        ? submitted.reason
        : `${got.name} passed every check, but Rampart could not store the batch, so nothing was submitted; submit it again in a moment.`;
    await client.chat
      .postEphemeral({ channel: m.value.channel, user: body.user.id, text: sentence })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not tell the requester why the batch was not submitted'));
  });
}
