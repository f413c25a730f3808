/**
 * Record outcome… and Confirm not paid on an outcome-unknown card. The buttons carry only the
 * execution id (and the proposal the person saw); everything is read and checked again on the
 * server (app/confirm-not-paid.ts checks in the finish script itself).
 */

import type { BlockButtonAction } from '@slack/bolt';
import { resolveText } from '../../../app/resolve-text.js';
import { slackActor } from '../../../domain/actor.js';
import { EXECUTION_ID } from '../../../domain/approval.js';
import { OUTCOME_ACTIONS } from '../blocks/not-paid.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';
import { openRecordOutcome } from '../views/record-outcome.js';
import { tell } from './approval.js';
import { offerNotPaidPasskey } from './step-up-offer.js';

const PROPOSAL = /^P-[0-9a-f]{8}$/;

/** Record outcome…: opens the form (views/record-outcome.ts). */
export const recordOutcomeAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const id = action.value ?? '';
    if (!EXECUTION_ID.test(id)) return;
    await openRecordOutcome(deps, client, body.trigger_id, body.user.id, id, body.channel?.id);
  };

/** Confirm not paid: the second person's confirmation of a proposed not-paid. */
export const confirmNotPaidAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const [id = '', proposal = ''] = (action.value ?? '').split(' ');
    if (!EXECUTION_ID.test(id) || !PROPOSAL.test(proposal)) return;
    const click = { user: body.user.id, channel: body.channel?.id, requestId: undefined };
    try {
      const outcome = await deps.app.executions.confirmNotPaid(slackActor(body.user.id), id, proposal);
      if (outcome.kind === 'refused' && outcome.why === 'needs-passkey') {
        await offerNotPaidPasskey(client, deps, { user: click.user, channel: click.channel }, id, proposal);
        return;
      }
      await tell(
        client,
        deps,
        click,
        resolveText(outcome, (u) => `<@${u}>`),
      );
    } catch (err) {
      deps.log.error({ err, executionId: id }, 'Confirm not paid failed');
      await tell(
        client,
        deps,
        click,
        'Rampart could not record that just now; try again in a minute. Nothing changed.',
      );
    }
  };

export function registerOutcomeActions(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(OUTCOME_ACTIONS.record, recordOutcomeAction(deps));
  app.action<BlockButtonAction>(OUTCOME_ACTIONS.confirm, confirmNotPaidAction(deps));
}
