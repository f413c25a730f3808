/**
 * "Request again" under a finished batch's summary: only its requester; opens a
 * "checking…" modal at once (the trigger lasts 3 s, the check reads the service), then shows the
 * re-checked rows with their total and any errors before anything is posted.
 */

import type { BlockButtonAction } from '@slack/bolt';
import type { View } from '@slack/types';
import { describeError } from '../../../app/describe-error.js';
import type { AgainRowsOutcome } from '../../../app/request-again.js';
import { slackActor } from '../../../domain/actor.js';
import { againConfirmModal, againInvalidModal, BATCH_AGAIN_ACTION, checkingModal } from '../blocks/batch-again.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';
import { readClick, tell } from './approval.js';

/** One sentence for every outcome that opens no modal. */
export function againRefusal(outcome: Exclude<AgainRowsOutcome, { kind: 'rows' }>): string | undefined {
  switch (outcome.kind) {
    case 'missing':
      return undefined;
    case 'not-requester':
      return `Only the requester of ${outcome.requestId}, <@${outcome.requester}>, can request its rows again.`;
    case 'not-done':
      return `${outcome.requestId} has not finished (it is ${outcome.state}); its rows can be requested again once it has.`;
    case 'none':
      return `No row of ${outcome.requestId} failed or was cancelled, so there is nothing to request again.`;
    case 'already':
      return `The rows of ${outcome.requestId} were already requested again${outcome.newId ? ` as ${outcome.newId}` : ''}; each batch can be requested again once.`;
  }
}

export const requestAgainAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    let again: AgainRowsOutcome;
    try {
      again = await deps.app.batches.againRows(click.requestId, slackActor(click.user));
    } catch (err) {
      deps.log.error({ err, requestId: click.requestId }, 'could not read a batch to request it again');
      return tell(client, deps, click, `Rampart could not read ${click.requestId} just now; try again in a moment.`);
    }
    if (again.kind !== 'rows') {
      const text = againRefusal(again);
      return text ? tell(client, deps, click, text) : undefined;
    }
    const id = again.source.sealed.id;
    let viewId: string | undefined;
    try {
      const what = `the ${again.rows.length} failed and cancelled rows of ${id} against today's balance, beneficiaries and limits.`;
      viewId = (await client.views.open({ trigger_id: body.trigger_id, view: checkingModal('Request again', what) }))
        .view?.id;
    } catch (err) {
      deps.log.warn({ err, requestId: id }, 'could not open the request-again modal');
      return tell(client, deps, click, `Rampart could not open the form for ${id}; press the button again.`);
    }
    let view: View;
    try {
      const checked = await deps.app.batches.checkAgain(again);
      view =
        checked.kind === 'checked'
          ? againConfirmModal(id, again.rows, checked, { channel: click.channel })
          : againInvalidModal(
              id,
              again.rows,
              checked.kind === 'unchecked' ? { kind: 'text', text: describeError(checked.error) } : checked,
            );
    } catch (err) {
      deps.log.error({ err, requestId: id }, 'request again: the rows could not be checked');
      view = againInvalidModal(id, again.rows, {
        kind: 'text',
        text: 'Rampart could not check the rows just now; try again in a moment.',
      });
    }
    if (!viewId) return;
    await client.views
      .update({ view_id: viewId, view })
      .catch((err: unknown) =>
        deps.log.warn({ err, requestId: id }, 'the request-again modal was closed before its check ended'),
      );
  };

export function registerRequestAgain(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(BATCH_AGAIN_ACTION, requestAgainAction(deps));
}
