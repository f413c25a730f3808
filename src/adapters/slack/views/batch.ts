/**
 * Submission of the /batch modal: download the picked CSV with the bot token, check
 * every row (views/batch-checking.ts → app/check-batch.ts), and answer on the form — the row
 * errors on the file field (the full list as a message when it does not fit), or, once the file
 * passes, submitBatch. When the check does not fit the ack budget (app/submit-budget.ts, as the
 * transfer form), the form shows "checking…" and is then updated with the same answers.
 */
import type { ViewStateValue } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { SubmitBatchOutcome } from '../../../app/submit-batch.js';
import { SubmitBudget } from '../../../app/submit-budget.js';
import { slackActor } from '../../../domain/actor.js';
import { BATCH_KINDS, type BatchKind } from '../../../domain/batch-cells.js';
import { checkingModal, lookalikeRows, noticeModal } from '../blocks/batch-again.js';
import {
  BATCH_CALLBACK,
  BATCH_FILE_AGAIN,
  type BatchModalPrior,
  batchMetaSchema,
  batchModal,
} from '../blocks/batch-modal.js';
import type { Deps } from '../deps.js';
import { readMetadata } from '../metadata.js';
import type { Routes, ViewHandler } from '../routes.js';
import { registerRequestAgainView } from './batch-again.js';
import { checkUpload, sendProblems, type Verdict, verdict } from './batch-checking.js';
import { whenField } from './when-field.js';

type Values = Record<string, Record<string, ViewStateValue>>;
// The first action of a block: the wallet's select has its own action id (it redraws the asset list).
const selected = (v: Values, block: string) => Object.values(v[block] ?? {})[0]?.selected_option?.value ?? undefined;
const pickedFiles = z.object({ files: z.array(z.object({ id: z.string(), name: z.string().optional() })).optional() });

async function submit(
  deps: Deps,
  v: Extract<Verdict, { kind: 'submit' }>,
  s: { user: string; channel: string; viewId: string; reason: string; when: string },
): Promise<SubmitBatchOutcome> {
  try {
    const set = whenField(s.when, deps.config.time.zone);
    return await deps.app.batches.submit(slackActor(s.user), {
      checked: v.checked,
      reason: s.reason,
      origin: s.channel,
      submission: s.viewId,
      fileName: v.name,
      ...set,
    });
  } catch (err) {
    deps.log.error({ err }, 'a checked batch could not be stored');
    return { kind: 'nothing' };
  }
}

const notStored = (name: string) =>
  `${name} passed every check, but Rampart could not store the batch, so nothing was submitted; submit it again in a moment.`;

/** True when the form could be updated (false: it was closed, or Slack refused). */
const update = (
  client: WebClient,
  deps: Deps,
  viewId: string,
  view: Parameters<WebClient['views']['update']>[0]['view'],
) =>
  client.views.update({ view_id: viewId, view }).then(
    () => true,
    (err: unknown) => {
      deps.log.info({ err }, 'the batch form could not be updated (closed?); answering by message');
      return false;
    },
  );

export const batchSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body, client }) => {
    const budget = new SubmitBudget();
    const m = readMetadata(batchMetaSchema, view.private_metadata);
    const v = view.state.values;
    const fileBlock = v[BATCH_FILE_AGAIN] ? BATCH_FILE_AGAIN : 'file';
    if (!m.ok) return void (await ack({ response_action: 'errors', errors: { [fileBlock]: m.problem } }));
    const kind = selected(v, 'kind');
    const wallet = selected(v, 'wallet');
    const asset = selected(v, 'asset');
    const file = pickedFiles.safeParse(v[fileBlock]?.[fileBlock]).data?.files?.[0];
    const errors: Record<string, string> = {};
    if (!kind || !(BATCH_KINDS as readonly string[]).includes(kind)) errors.kind = 'Choose transfers or offramps.';
    if (!wallet) errors.wallet = 'Choose the wallet to pay from.';
    if (!asset) errors.asset = 'Choose the asset to send.';
    if (!file) errors[fileBlock] = 'Attach the CSV file; `/batch template` shows its columns.';
    if (Object.keys(errors).length > 0 || !file || !wallet || !asset)
      return void (await ack({ response_action: 'errors', errors }));
    const reason = v.reason?.reason?.value?.trim() ?? '';
    const user = body.user.id;
    const channel = m.value.channel;
    const s = { user, channel, viewId: view.id, reason, when: v.when?.when?.value ?? '' };

    const work = checkUpload(deps, client, { kind: kind as BatchKind, wallet, asset, fileId: file.id });
    const early = await budget.untilAnswer(work).catch(() => undefined);
    if (early) {
      const answer = verdict(deps, early);
      if (answer.kind === 'problem') {
        await ack({
          response_action: 'errors',
          errors: { [answer.field === 'file' ? fileBlock : 'wallet']: answer.text },
        });
        if (!answer.fits) await sendProblems(client, deps, user, channel, answer.name, answer.all);
        return;
      }
      // The create runs after the ack (the checks used most of Slack's 3 s).
      await ack();
      return finish(client, deps, await submit(deps, answer, s), answer.name, channel, user);
    }

    // Too slow for the ack; the form says "checking…" and is updated after.
    await ack({
      response_action: 'update',
      view: checkingModal('New batch payout', `${file.name ?? 'your file'}: every row, before anything is posted.`),
    });
    const answer = verdict(deps, await work);
    const prior: BatchModalPrior = { kind, wallet, asset, reason };
    if (answer.kind === 'problem') {
      const shown = await update(
        client,
        deps,
        view.id,
        batchModal({ channel }, deps.config.wallets, { ...prior, problem: answer.text }),
      );
      // The full list always reaches the requester: by direct message when the form is gone.
      if (!shown || !answer.fits) await sendProblems(client, deps, user, channel, answer.name, answer.all, !shown);
      return;
    }
    const submitted = await submit(deps, answer, s);
    if (submitted.kind === 'created') {
      await update(
        client,
        deps,
        view.id,
        noticeModal(
          'New batch payout',
          `:white_check_mark: ${answer.name} passed every check: *${submitted.sealed.id}* is posted for approval.${lookalikeRows(submitted.sealed.display.batch)}`,
        ),
      );
      return deps.app.payments.announce(submitted.sealed);
    }
    if (submitted.kind === 'taken')
      return void (await update(
        client,
        deps,
        view.id,
        noticeModal('New batch payout', `This form already became *${submitted.id}*.`),
      ));
    const sentence = submitted.kind === 'refused' ? submitted.reason : notStored(answer.name);
    const shown = await update(
      client,
      deps,
      view.id,
      batchModal({ channel }, deps.config.wallets, { ...prior, problem: sentence }),
    );
    if (!shown) await sendProblems(client, deps, user, channel, answer.name, [sentence], true);
  };

export function registerBatchView(app: Routes, deps: Deps): void {
  registerRequestAgainView(app, deps);
  app.view(BATCH_CALLBACK, batchSubmit(deps));
}

async function finish(
  client: WebClient,
  deps: Deps,
  submitted: SubmitBatchOutcome,
  name: string,
  channel: string,
  user: string,
) {
  if (submitted.kind === 'created') return deps.app.payments.announce(submitted.sealed);
  if (submitted.kind === 'taken') return;
  const sentence = submitted.kind === 'refused' ? submitted.reason : notStored(name);
  await client.chat
    .postEphemeral({ channel, user, text: sentence })
    .catch((err: unknown) => deps.log.warn({ err }, 'could not tell the requester why the batch was not submitted'));
}
