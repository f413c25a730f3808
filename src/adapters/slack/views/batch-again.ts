/**
 * The request-again confirmation: on submit the form turns to "checking…" at once
 * (the ack), the rows are read and checked again and the new batch created after it, and the
 * form then says what it became — or, when it was closed meanwhile, a message does.
 */
import type { View } from '@slack/types';
import { describeError } from '../../../app/describe-error.js';
import type { SubmitAgainOutcome } from '../../../app/request-again.js';
import { slackActor } from '../../../domain/actor.js';
import { againRefusal } from '../actions/batch-again.js';
import {
  againInvalidModal,
  BATCH_AGAIN_CALLBACK,
  batchAgainMetaSchema,
  checkingModal,
  lookalikeRows,
  noticeModal,
} from '../blocks/batch-again.js';
import type { Deps } from '../deps.js';
import { readMetadata } from '../metadata.js';
import type { Routes, ViewHandler } from '../routes.js';
import { sendToRequester } from './batch-checking.js';

function resultView(id: string, outcome: SubmitAgainOutcome): { view: View; text: string } {
  const done = (text: string) => ({ view: noticeModal('Request again', text), text });
  switch (outcome.kind) {
    case 'created':
      return done(
        `:white_check_mark: *${outcome.sealed.id}* is posted for approval: the rows of ${id} that failed or were cancelled, checked again.${lookalikeRows(outcome.sealed.display.batch)}`,
      );
    case 'taken':
      return done(`This form already became ${outcome.id}.`);
    case 'refused':
      return done(outcome.reason);
    case 'nothing':
      return done(
        `Rampart could not store the new batch, so nothing was submitted; press *Request again* under ${id}'s summary in a moment.`,
      );
    case 'invalid': {
      const problems =
        outcome.check.kind === 'unchecked'
          ? { kind: 'text' as const, text: describeError(outcome.check.error) }
          : outcome.check;
      const view = againInvalidModal(id, outcome.rows, problems);
      const all =
        problems.kind === 'invalid'
          ? [...problems.fileErrors, ...problems.rowErrors.map((e) => e.message)].join(' ')
          : problems.text;
      return { view, text: `The rows of ${id} cannot be requested again as they are; nothing was submitted. ${all}` };
    }
    default:
      return done(againRefusal(outcome) ?? `${id} cannot be requested again.`);
  }
}

export const batchAgainSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body, client }) => {
    const m = readMetadata(batchAgainMetaSchema, view.private_metadata);
    if (!m.ok) return void (await ack({ response_action: 'update', view: noticeModal('Request again', m.problem) }));
    const id = m.value.id;
    await ack({
      response_action: 'update',
      view: checkingModal('Request again', `the rows of ${id} once more, then posting the new batch.`),
    });
    let outcome: SubmitAgainOutcome;
    try {
      outcome = await deps.app.batches.submitAgain(slackActor(body.user.id), {
        requestId: id,
        submission: view.id,
        origin: m.value.channel,
      });
    } catch (err) {
      deps.log.error({ err, requestId: id }, 'request again failed');
      outcome = { kind: 'nothing' };
    }
    if (outcome.kind === 'created') await deps.app.payments.announce(outcome.sealed);
    const result = resultView(id, outcome);
    await client.views.update({ view_id: view.id, view: result.view }).catch(async (err: unknown) => {
      deps.log.info({ err, requestId: id }, 'the request-again form was closed; telling the requester by message');
      await sendToRequester(client, deps, body.user.id, m.value.channel, [
        { type: 'section', text: { type: 'mrkdwn', text: result.text.slice(0, 2900) } },
      ]);
    });
  };

export function registerRequestAgainView(app: Routes, deps: Deps): void {
  app.view(BATCH_AGAIN_CALLBACK, batchAgainSubmit(deps));
}
