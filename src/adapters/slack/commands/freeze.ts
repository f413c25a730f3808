/**
 * /freeze, /unfreeze and the unfreeze card's buttons: read the payload → deps.app.freeze (app/freeze.ts)
 * → a private answer, the one channel message, or the unfreeze card.
 */

import type { BlockButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { NO_REASON } from '../../../app/freeze-reason.js';
import { slackActor } from '../../../domain/actor.js';
import type { UnfreezeChoice } from '../../../domain/freeze-state.js';
import type { RequestRecord } from '../../../domain/request.js';
import { esc } from '../blocks/common.js';
import { freezeAnnouncement, UNFREEZE_ACTIONS, unfreezeCardBlocks } from '../blocks/freeze.js';
import { isHelp } from '../blocks/usage.js';
import { refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import type { CommandHandler, Routes } from '../routes.js';

const FREEZE_USAGE =
  '`/freeze [reason]` stops every approval and execution at once (approvers only); a freeze made without a reason gets one with a second `/freeze <reason>`. `/unfreeze` opens a card that two approvers decide.';

const heldLine = (r: RequestRecord): string => {
  const f = r.sealed;
  const what = `${f.call.kind} ${esc(f.display.amountText ?? '')} ${esc(f.display.assetCode ?? '')}`.trim();
  return `*${f.id}* · ${what} · by <@${f.requester}> · approved by <@${r.decidedBy ?? '?'}>`;
};

/** Draws the unfreeze card: posted the first time, updated in place after. */
async function showUnfreezeCard(
  client: WebClient,
  deps: Deps,
  card: { channel: string; ts: string } | undefined,
  view: Parameters<typeof unfreezeCardBlocks>[0],
): Promise<{ channel: string; ts: string } | undefined> {
  const blocks = unfreezeCardBlocks(view);
  const text = 'Unfreeze Rampart';
  try {
    if (card) {
      await client.chat.update({ channel: card.channel, ts: card.ts, text, blocks });
      return card;
    }
    const posted = await client.chat.postMessage({ channel: deps.config.approvalsChannel, text, blocks });
    return { channel: posted.channel ?? deps.config.approvalsChannel, ts: posted.ts ?? '' };
  } catch (err) {
    deps.log.error({ err }, 'could not post or update the unfreeze card');
    return undefined;
  }
}

/** The asker's private answer; a failure to send it is logged, never thrown. */
const privateAnswer =
  (client: WebClient, deps: Deps, command: { channel_id: string; user_id: string }, name: string) => (text: string) =>
    client.chat
      .postEphemeral({ channel: command.channel_id, user: command.user_id, text: text })
      .catch((err: unknown) => deps.log.warn({ err }, `could not answer ${name}`));

/** A non-approver is told who can freeze, not only that they cannot. */
export const whoCanFreeze = (approvers: readonly string[]): string =>
  `Only approvers can freeze Rampart: ${approvers.map((a) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`)).join(', ')}. Ask one of them; nothing changed.`;

/** The reason for a freeze made without one, told to the channel once and to its author. */
async function addReason(
  client: WebClient,
  deps: Deps,
  user: string,
  reason: string,
  answer: (text: string) => Promise<unknown>,
): Promise<void> {
  const added = await deps.app.freeze.addReason(slackActor(user), reason);
  if (added.kind === 'not-approver') return void (await answer(whoCanFreeze(deps.config.approvers)));
  if (added.kind === 'approver-check-failed') return void (await answer(refusalText(added)));
  if (added.kind === 'kept')
    return void (await answer('The freeze already has a reason; nothing changed. Use /unfreeze to lift it.'));
  await client.chat
    .postMessage({
      channel: deps.config.approvalsChannel,
      text: `:octagonal_sign: <@${user}> added the reason for the freeze: ${esc(reason)}`,
    })
    .catch((err: unknown) => deps.log.error({ err }, 'could not announce the freeze reason'));
  await answer('The reason is added to the freeze; every open card shows it.');
}

/** /freeze [reason]: approvers only; a reason may be added once to a freeze made without one. */
export const freezeCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    if (isHelp(command.text ?? '')) {
      await ack({ response_type: 'ephemeral', text: FREEZE_USAGE });
      return;
    }
    await ack();
    const answer = privateAnswer(client, deps, command, '/freeze');
    const reason = (command.text ?? '').trim();
    const outcome = await deps.app.freeze.start(slackActor(command.user_id), reason);
    deps.homeRefresh?.changed(); // App Home shows the freeze banner
    switch (outcome.kind) {
      case 'not-approver':
        await answer(whoCanFreeze(deps.config.approvers));
        return;
      case 'approver-check-failed':
        await answer(refusalText(outcome));
        return;
      case 'already':
        if (reason && outcome.freeze.reason === NO_REASON) {
          await addReason(client, deps, command.user_id, reason, answer);
          return;
        }
        await answer(
          `Rampart is already frozen by <@${outcome.freeze.by}> (${esc(outcome.freeze.reason)}); nothing changed. Use /unfreeze to lift it.`,
        );
        return;
      case 'frozen':
        await client.chat
          .postMessage({
            channel: deps.config.approvalsChannel,
            text: freezeAnnouncement(outcome.freeze, outcome.open),
          })
          .catch((err: unknown) => deps.log.error({ err }, 'could not announce the freeze'));
        await answer(
          reason
            ? 'Rampart is frozen: no approval and no execution until an unfreeze is approved.'
            : 'Rampart is frozen: no approval and no execution until an unfreeze is approved. Add a reason so the team knows why: `/freeze <reason>`.',
        );
        return;
    }
  };

/** /unfreeze: posts (or refreshes) the card two approvers decide. */
export const unfreezeCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client }) => {
    if (isHelp(command.text ?? '')) {
      await ack({ response_type: 'ephemeral', text: FREEZE_USAGE });
      return;
    }
    await ack();
    const answer = privateAnswer(client, deps, command, '/unfreeze');
    const outcome = await deps.app.freeze.proposeUnfreeze(slackActor(command.user_id));
    switch (outcome.kind) {
      case 'not-approver':
      case 'approver-check-failed':
        await answer(refusalText(outcome));
        return;
      case 'not-frozen':
        await answer('Rampart is not frozen; nothing to unfreeze.');
        return;
      case 'proposal': {
        const card = await showUnfreezeCard(client, deps, outcome.proposal.card, {
          proposal: outcome.proposal,
          freeze: outcome.freeze,
          held: outcome.held.map((r) => ({ id: r.sealed.id, line: heldLine(r) })),
          required: outcome.required,
        });
        if (card && !outcome.proposal.card) await deps.app.freeze.keepUnfreezeCard(card);
        await answer(
          outcome.created
            ? 'The unfreeze card is in the approvals channel; two approvers must choose there.'
            : 'An unfreeze is already waiting in the approvals channel; its card is refreshed.',
        );
        return;
      }
    }
  };

export function registerFreezeCommands(app: Routes, deps: Deps): void {
  app.command('/freeze', freezeCommand(deps));
  app.command('/unfreeze', unfreezeCommand(deps));

  const onChoice = (choice: UnfreezeChoice) =>
    (async ({ ack, body, action, client }) => {
      await ack();
      const user = body.user.id;
      const where = { channel_id: body.channel?.id ?? deps.config.approvalsChannel, user_id: user };
      const tell = privateAnswer(client, deps, where, 'an unfreeze click');
      const outcome = await deps.app.freeze.voteUnfreeze(slackActor(user), action.value ?? '', choice);
      deps.homeRefresh?.changed(); // a lifted freeze leaves App Home
      switch (outcome.kind) {
        case 'not-approver':
        case 'approver-check-failed':
          await tell(refusalText(outcome));
          return;
        case 'not-frozen':
          await tell('Rampart is no longer frozen; nothing changed.');
          return;
        case 'stale':
          await tell('This unfreeze card is out of date; use the newest one or /unfreeze.');
          return;
        case 'voted':
          await showUnfreezeCard(client, deps, outcome.proposal.card, {
            proposal: outcome.proposal,
            freeze: outcome.freeze,
            held: outcome.held.map((r) => ({ id: r.sealed.id, line: heldLine(r) })),
            required: outcome.required,
          });
          await tell(`Your choice (${choice}) is recorded; another approver must choose the same.`);
          return;
        case 'lifted':
          await showUnfreezeCard(client, deps, outcome.proposal.card, {
            proposal: outcome.proposal,
            freeze: undefined,
            held: outcome.held.map((id) => ({ id, line: `*${id}*` })),
            required: 0,
          });
          return;
      }
    }) satisfies Parameters<typeof app.action<BlockButtonAction>>[1];

  app.action<BlockButtonAction>(UNFREEZE_ACTIONS.unfreeze, onChoice('unfreeze'));
  app.action<BlockButtonAction>(UNFREEZE_ACTIONS.cancel, onChoice('cancel'));
}
