/**
 * `/addresses add`'s form → the same use case as `rampart addresses add` (app.destinations.submit)
 * → field errors, or one approval card for the entry.
 */
import { SubmitBudget } from '../../../app/submit-budget.js';
import { slackActor } from '../../../domain/actor.js';
import type { EntryField } from '../../../domain/address-book.js';
import { ADDRESSES_CALLBACK } from '../blocks/addresses.js';
import { section } from '../blocks/common.js';
import { resultModal } from '../blocks/identity.js';
import { notCreatedSentence } from '../blocks/submitted.js';
import type { Deps } from '../deps.js';
import type { Routes, ViewHandler } from '../routes.js';
import { field, metaOf } from './beneficiary-request.js';

/** The form's block for each input a problem can be about (the whole addition: the reason). */
const FIELD_BLOCK: Record<EntryField, string> = {
  name: 'name',
  chain: 'chain',
  address: 'address',
  wallets: 'wallets',
  entries: 'reason',
};

export const addressesSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const v = view.state.values;
    const reason = field(v, 'reason');
    if (reason.length < 3) {
      await ack({ response_action: 'errors', errors: { reason: 'Say why this address is needed; approvers see it.' } });
      return;
    }
    const wallets = field(v, 'wallets')
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean);
    const submitted = await deps.app.destinations.submit({
      entries: [
        {
          name: field(v, 'name'),
          chain: v.chain?.chain?.selected_option?.value ?? '',
          address: field(v, 'address'),
          wallets: wallets.length === 0 ? '*' : wallets,
        },
      ],
      actor: slackActor(body.user.id),
      reason,
      origin: metaOf(view.private_metadata).channel,
      submission: view.id,
      budget: new SubmitBudget(),
    });
    if (submitted.kind === 'invalid') {
      // Each problem names its input; its sentence goes on that input's block.
      const errors: Record<string, string> = {};
      for (const p of submitted.problems) {
        const block = FIELD_BLOCK[p.field];
        errors[block] = errors[block] ? `${errors[block]} ${p.message}` : p.message;
      }
      await ack({ response_action: 'errors', errors });
      return;
    }
    if (submitted.kind !== 'created') {
      await ack({ response_action: 'errors', errors: { reason: notCreatedSentence(submitted) } });
      return;
    }
    const sealed = submitted.sealed;
    const waiting = resultModal('Address book entry', [
      section(
        `:hourglass_flowing_sand: *${sealed.id}* is waiting for approval in <#${deps.config.approvalsChannel}>. Once approved, the entry cools off before it can be paid.`,
      ),
    ]);
    await deps.app.payments.ackThenAnnounce(() => ack({ response_action: 'update', view: waiting }), sealed);
  };

export function registerAddressesView(app: Routes, deps: Deps): void {
  app.view(ADDRESSES_CALLBACK, addressesSubmit(deps));
}
