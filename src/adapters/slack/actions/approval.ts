/**
 * Approve / Deny / Cancel on a card: read the click → deps.app.approvals (app/decide.ts) → a private answer. The
 * button carries only the request id, never what to execute (DESIGN invariant 2).
 */

import type { BlockButtonAction, BlockOverflowAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { describeRedisFailure } from '../../../app/describe-error.js';
import { slackActor } from '../../../domain/actor.js';
import { APPROVAL_ID } from '../../../domain/approval.js';
import { unconfirmedText } from '../../../presenters/address.js';
import { APPROVAL_ACTIONS } from '../blocks/card.js';
import { frozenClickText } from '../blocks/freeze.js';
import { WARNINGS_CHECKED } from '../blocks/repeat-lines.js';
import { readStepUpClick, STEP_UP_ACTION, stepUpUsedText } from '../blocks/step-up.js';
import { lateClickText, refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';
import { denyModal } from '../views/deny.js';
import { offerPasskey } from './step-up-offer.js';

export interface Click {
  user: string;
  channel: string | undefined;
  requestId: string | undefined;
  /** An Approve whose confirm dialog asked to check the card's warnings. */
  warningsChecked?: boolean;
}

/**
 * A button carries the id as its value (Approve on a card with warnings adds " warnings-checked");
 * the card's overflow menu (Cancel) as its option's.
 */
export function readClick(
  body: BlockButtonAction | BlockOverflowAction,
  action: { value?: string; selected_option?: { value: string } },
): Click {
  const [value, flag] = (action.value ?? action.selected_option?.value ?? '').split(' ');
  return {
    user: body.user.id,
    channel: body.channel?.id,
    requestId: value && APPROVAL_ID.test(value) ? value : undefined,
    ...(flag === WARNINGS_CHECKED ? { warningsChecked: true } : {}),
  };
}

export async function tell(client: WebClient, deps: Deps, click: Click, text: string): Promise<void> {
  try {
    await client.chat.postEphemeral({
      channel: click.channel ?? deps.config.approvalsChannel,
      user: click.user,
      text: text,
    });
  } catch (err) {
    deps.log.warn({ err }, 'could not send a private reply');
  }
}

/** Approve: counted, or one private sentence for each refusal; a step-up request offers the passkey page. */
export const approveAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    const outcome = await deps.app.approvals.approve(
      click.requestId,
      slackActor(click.user),
      click.warningsChecked === true,
    );
    switch (outcome.kind) {
      case 'not-approver':
      case 'approver-check-failed':
        return tell(client, deps, click, refusalText(outcome));
      case 'self':
        return tell(
          client,
          deps,
          click,
          `You requested ${outcome.requestId}, so you cannot approve it; another approver must.`,
        );
      case 'duplicate':
        return tell(
          client,
          deps,
          click,
          `You have already approved ${outcome.requestId}; it needs ${outcome.remaining} more approval(s) from someone else.`,
        );
      case 'late':
        return tell(client, deps, click, lateClickText(outcome.decided));
      case 'frozen':
        return tell(client, deps, click, frozenClickText(outcome.requestId, outcome.freeze));
      case 'over_limit':
        return tell(
          client,
          deps,
          click,
          `${outcome.requestId} stays pending and your approval was not counted. ${outcome.message} Approve again when headroom returns, or deny it.`,
        );
      case 'unavailable':
        return tell(client, deps, click, describeRedisFailure(outcome.failure));
      case 'unconfirmed':
        return tell(client, deps, click, unconfirmedText(outcome.requestId));
      case 'step-up': // not counted; the passkey page counts it
        return offerPasskey(client, deps, click, outcome.requestId, 'approve', click.warningsChecked === true);
      case 'missing':
      case 'voted':
      case 'approved':
        return;
    }
  };

/**
 * The passkey link button opens the page; its click replaces the private message,
 * whose link works once, with what to do if the page was closed.
 */
export const stepUpLinkAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, action, respond, body }) => {
    await ack();
    if (!action.value) return;
    // Read once, at one moment: the message and whether it is kept agree on "expired".
    const click = readStepUpClick(action.value, Date.now());
    const { purpose, subject } = click;
    await respond({ replace_original: true, text: stepUpUsedText(click) }).catch((err: unknown) =>
      deps.log.warn({ err }, 'could not replace the passkey link message'),
    );
    // Kept so the message says "Passkey link used" once the page has counted the passkey.
    if ((purpose === 'approve' || purpose === 'resume') && subject && !click.expired && body.response_url)
      await deps.app.passkeys
        .keepLinkMessage(slackActor(body.user.id), purpose, subject, body.response_url)
        .catch((err: unknown) => deps.log.warn({ err }, 'could not keep the passkey link message'));
  };

/** Deny: opens the reason modal for an approver while the request is pending. */
export const denyAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    const check = await deps.app.approvals.checkDeny(click.requestId, slackActor(click.user));
    switch (check.kind) {
      case 'not-approver':
      case 'approver-check-failed':
        return tell(client, deps, click, refusalText(check));
      case 'late':
        return tell(client, deps, click, lateClickText(check.decided));
      case 'unavailable':
        return tell(client, deps, click, describeRedisFailure(check.failure));
      case 'missing':
        return;
      case 'may-deny':
        try {
          await client.views.open({ trigger_id: body.trigger_id, view: denyModal(click.requestId, click.channel) });
        } catch (err) {
          deps.log.error({ err }, 'could not open the deny modal');
        }
    }
  };

/** Cancel (the card's overflow menu): the requester only. */
export const cancelAction =
  (deps: Deps): ActionHandler<BlockButtonAction | BlockOverflowAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const click = readClick(body, action);
    if (!click.requestId) return;
    const outcome = await deps.app.approvals.cancel(click.requestId, slackActor(click.user));
    switch (outcome.kind) {
      case 'not-requester':
        return tell(
          client,
          deps,
          click,
          `Only the requester, <@${outcome.requester}>, can cancel ${outcome.requestId}. Approvers can deny it instead.`,
        );
      case 'late':
        return tell(client, deps, click, lateClickText(outcome.decided));
      case 'missing':
      case 'cancelled':
        return;
    }
  };

export function registerApprovalActions(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(APPROVAL_ACTIONS.approve, approveAction(deps));
  app.action<BlockButtonAction>(STEP_UP_ACTION, stepUpLinkAction(deps));
  app.action<BlockButtonAction>(APPROVAL_ACTIONS.deny, denyAction(deps));
  app.action<BlockButtonAction | BlockOverflowAction>(APPROVAL_ACTIONS.cancel, cancelAction(deps));
}
