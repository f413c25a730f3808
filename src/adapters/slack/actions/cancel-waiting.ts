/**
 * Cancel on a waiting card (approved, before its runAt): any one approver or the requester, after
 * Slack's confirmation naming the money → deps.app.approvals.cancelWaiting → a private answer. The
 * thread and the card say who cancelled (the outcome notice).
 */
import type { BlockButtonAction } from '@slack/bolt';
import { slackActor } from '../../../domain/actor.js';
import { waitingCancelText } from '../../../presenters/waiting-cancel.js';
import { CANCEL_WAITING_ACTION } from '../blocks/card.js';
import { refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';
import { readClick, tell } from './approval.js';

export const cancelWaitingAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    const outcome = await deps.app.approvals.cancelWaiting(click.requestId, slackActor(click.user));
    switch (outcome.kind) {
      case 'refused':
        return tell(client, deps, click, waitingCancelText(outcome.code, outcome.requestId));
      case 'approver-check-failed':
        return tell(client, deps, click, refusalText(outcome));
      case 'cancelled':
        return tell(client, deps, click, `You cancelled ${outcome.requestId}; nothing was sent.`);
      case 'missing':
        return;
    }
  };

export function registerCancelWaiting(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(CANCEL_WAITING_ACTION, cancelWaitingAction(deps));
}
