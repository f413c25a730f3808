/**
 * Passkey buttons: "Approve passkey…" on a new passkey's card and "Remove…" in
 * /passkey's list. Neither changes anything: each answers privately with a one-time link to the
 * step-up page, where only a passkey decides, or with one sentence saying why not.
 */

import type { BlockButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { PasskeyOffer } from '../../../app/passkey-decide.js';
import { slackActor } from '../../../domain/actor.js';
import { PASSKEY_ACTIONS, passkeyLinkBlock, passkeyOfferText } from '../blocks/passkey.js';
import type { Deps } from '../deps.js';
import type { ActionHandler, Routes } from '../routes.js';

async function answer(
  client: WebClient,
  deps: Deps,
  body: BlockButtonAction,
  offer: PasskeyOffer,
  what: 'approve' | 'remove',
): Promise<void> {
  const message =
    offer.kind === 'link'
      ? {
          text:
            what === 'approve'
              ? 'Approve this passkey with your own: the link is yours only and works once, for 5 minutes.'
              : 'Remove this passkey with another of yours: the link is yours only and works once, for 5 minutes.',
          blocks: [
            passkeyLinkBlock(
              what === 'approve' ? 'Approve with your passkey' : 'Remove with another passkey',
              offer.url,
            ),
          ],
        }
      : {
          text:
            offer.kind === 'late' && what === 'remove' ? passkeyOfferText['remove-late'] : passkeyOfferText[offer.kind],
        };
  await client.chat
    .postEphemeral({
      channel: body.channel?.id ?? deps.config.approvalsChannel,
      user: body.user.id,
      ...message,
      text: message.text,
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'could not answer a passkey button'));
}

/** "Approve passkey…" on a new passkey's card. */
export const approvePasskeyAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    const value = action.value ?? '';
    const slash = value.indexOf('/');
    if (slash <= 0) return;
    try {
      const offer = await deps.app.passkeys.offerApproval(
        slackActor(body.user.id),
        value.slice(0, slash),
        value.slice(slash + 1),
      );
      await answer(client, deps, body, offer, 'approve');
    } catch (err) {
      deps.log.error({ err }, 'passkey approval offer failed');
    }
  };

/** "Remove…" in /passkey's list. */
export const removePasskeyAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, action, client }) => {
    await ack();
    if (!action.value) return;
    try {
      await answer(client, deps, body, await deps.app.passkeys.offerRemoval(body.user.id, action.value), 'remove');
    } catch (err) {
      deps.log.error({ err }, 'passkey removal offer failed');
    }
  };

export function registerPasskeyActions(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(PASSKEY_ACTIONS.approve, approvePasskeyAction(deps));
  app.action<BlockButtonAction>(new RegExp(`^${PASSKEY_ACTIONS.remove}_\\d+$`), removePasskeyAction(deps));

  // A link button only opens the page; its click is acknowledged, nothing more.
  app.action<BlockButtonAction>(PASSKEY_ACTIONS.open, async ({ ack }) => {
    await ack();
  });
}
