/**
 * A Remove button on `/addresses`: the same use case as `rampart addresses remove`
 * (app.destinations.remove, which checks the clicker is an approver), then the list redrawn in
 * place and the approvals channel told who removed what.
 */
import type { BlockButtonAction } from '@slack/bolt';
import { z } from 'zod';
import { slackActor } from '../../../domain/actor.js';
import { ADDRESSES_REMOVE_PATTERN, addressListBlocks, removedNotice } from '../blocks/addresses.js';
import { USAGE } from '../blocks/usage.js';
import { refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import { respondError } from '../respond.js';
import type { ActionHandler, Routes } from '../routes.js';

// A button value is client-supplied text: only an entry id reaches the use case.
const entryId = z.string().regex(/^A-\d{1,12}$/);

export const removeAddressAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, action, body, respond, client }) => {
    await ack();
    const tell = (text: string) => respond({ response_type: 'ephemeral', replace_original: false, text });
    const id = entryId.safeParse(action.value);
    if (!id.success) return void (await tell('This button is from an older version of Rampart; run /addresses again.'));
    try {
      const outcome = await deps.app.destinations.remove(slackActor(body.user.id), id.data);
      switch (outcome.kind) {
        case 'not-approver':
          return void (await tell('Only approvers remove address-book entries, so nothing changed; ask one of them.'));
        case 'approver-check-failed':
          return void (await tell(refusalText({ kind: 'approver-check-failed', error: undefined })));
        case 'missing':
          return void (await tell(`${id.data} is no longer in the address book; run /addresses to see the list now.`));
        case 'removed': {
          // The counts the removal read: one read for the notice and the redrawn list.
          const [entries, mode] = await Promise.all([deps.app.destinations.list(), deps.app.destinations.mode()]);
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            text: 'Address book',
            blocks: addressListBlocks(entries, mode, Date.now(), outcome.unsentByEntry),
          });
          const text = removedNotice(outcome.entry, body.user.id, outcome.unsent);
          await client.chat
            .postMessage({ channel: deps.config.approvalsChannel, text })
            .catch((err: unknown) => deps.log.error({ err }, 'could not announce an address-book removal'));
          return;
        }
      }
    } catch (err) {
      await respondError(respond, deps, err, USAGE.addresses);
    }
  };

export function registerAddressesActions(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(ADDRESSES_REMOVE_PATTERN, removeAddressAction(deps));
}
