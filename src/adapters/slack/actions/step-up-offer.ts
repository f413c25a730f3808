/**
 * Approve on a step-up request: the vote was not counted; the approver gets a private
 * button to the passkey page, or one sentence on how to enrol.
 */

import type { WebClient } from '@slack/web-api';
import { slackActor } from '../../../domain/actor.js';
import {
  lateText,
  noPasskeyText,
  notPaidNoPasskeyText,
  notPaidOfferBlocks,
  notPaidOfferText,
  stepUpOfferBlocks,
  stepUpOfferText,
} from '../blocks/step-up.js';
import type { Deps } from '../deps.js';

export async function offerPasskey(
  client: WebClient,
  deps: Deps,
  click: { user: string; channel: string | undefined },
  requestId: string,
  purpose: 'approve' | 'resume' = 'approve',
  warningsChecked = false,
): Promise<void> {
  const offer = await deps.app.passkeys.offerStepUp(requestId, slackActor(click.user), purpose, warningsChecked);
  const channel = click.channel ?? deps.config.approvalsChannel;
  const message =
    offer.kind === 'link'
      ? {
          text: stepUpOfferText(requestId, purpose),
          blocks: stepUpOfferBlocks(requestId, offer.url, purpose, offer.expiresAt),
        }
      : { text: offer.kind === 'late' ? lateText(requestId) : noPasskeyText(requestId, offer.waiting, purpose) };
  try {
    await client.chat.postEphemeral({
      channel,
      user: click.user,
      ...message,
      text: message.text,
    });
  } catch (err) {
    deps.log.warn({ err }, 'could not send the passkey link');
  }
}

/** Confirm not paid on a passkey approval: the click changed nothing; the confirmer gets the page's link. */
export async function offerNotPaidPasskey(
  client: WebClient,
  deps: Deps,
  click: { user: string; channel: string | undefined },
  executionId: string,
  proposal: string,
): Promise<void> {
  const offer = await deps.app.passkeys.offerNotPaid(executionId, slackActor(click.user), proposal);
  const message =
    offer.kind === 'link'
      ? { text: notPaidOfferText(executionId), blocks: notPaidOfferBlocks(executionId, offer.url) }
      : {
          text:
            offer.kind === 'late'
              ? `${executionId} is no longer outcome unknown; nothing changed.`
              : notPaidNoPasskeyText(executionId, offer.waiting),
        };
  try {
    await client.chat.postEphemeral({
      channel: click.channel ?? deps.config.approvalsChannel,
      user: click.user,
      ...message,
      text: message.text,
    });
  } catch (err) {
    deps.log.warn({ err }, 'could not send the passkey link');
  }
}
