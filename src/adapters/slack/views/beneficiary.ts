/**
 * New beneficiary: chosen identity; a Nigerian account looked up first and confirmed
 * by its holder name, or a cross-border account; then an approval-gated request like a payment.
 */

import type { BlockButtonAction } from '@slack/bolt';
import { describeError } from '../../../app/describe-error.js';
import { SubmitBudget } from '../../../app/submit-budget.js';
import {
  BENEFICIARY_ACTIONS,
  BENEFICIARY_CALLBACK,
  beneficiaryProblemModal,
  beneficiaryRequestedModal,
  confirmMetaSchema,
  confirmModal,
  crossBorderModal,
  nigerianModal,
} from '../blocks/beneficiary.js';
import { identityModal } from '../blocks/identity.js';
import { NEW_BENEFICIARY_ACTION } from '../blocks/request-modal.js';
import type { Deps } from '../deps.js';
import { readMetadata } from '../metadata.js';
import type { ActionHandler, Routes, ViewHandler } from '../routes.js';
import { registerCrossBorderView } from './beneficiary-cross-border.js';
import {
  field,
  identityPicked,
  invalidErrors,
  metaOf,
  notRequested,
  readBeneficiaryMeta,
} from './beneficiary-request.js';

export const newBeneficiaryAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    const meta = metaOf(body.view?.private_metadata ?? '');
    await client.views
      .push({ trigger_id: body.trigger_id, view: nigerianModal(meta) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not push the beneficiary modal'));
  };

export const newIdentityAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    await client.views
      .push({ trigger_id: body.trigger_id, view: identityModal({}) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not push the identity modal'));
  };

export const switchVariantAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    if (!body.view) return;
    const meta = metaOf(body.view.private_metadata);
    const next = body.view.callback_id === BENEFICIARY_CALLBACK.ng ? crossBorderModal(meta) : nigerianModal(meta);
    await client.views
      .update({ view_id: body.view.id, hash: body.view.hash, view: next })
      .catch((err: unknown) => deps.log.error({ err }, 'could not switch the beneficiary form'));
  };

// Nigerian account: look it up, then show the holder name for confirmation.
export const nigerianSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const meta = readBeneficiaryMeta(view.private_metadata);
    if (!meta.ok) {
      await ack({ response_action: 'errors', errors: { reason: meta.problem } });
      return;
    }
    const v = view.state.values;
    const picked = identityPicked(v);
    const r = await deps.app.registry.lookupNigerian({
      identity: picked.value,
      bankCode: field(v, 'bank_code'),
      accountNumber: field(v, 'account_number'),
      reason: field(v, 'reason'),
      requester: body.user.id,
      channel: meta.value.channel,
    });
    if (r.kind === 'confirm') {
      await ack({ response_action: 'update', view: confirmModal(r.token, r) });
      return;
    }
    const errors =
      r.kind === 'invalid'
        ? invalidErrors(r, picked.note)
        : {
            account_number:
              r.kind === 'not-found'
                ? `No account ending ${r.last4} at bank ${r.bankCode}; check both numbers.`
                : r.kind === 'slow'
                  ? 'The bank lookup is slow right now; submit again in a moment.'
                  : describeError(r.error),
          };
    await ack({ response_action: 'errors', errors });
  };

export const confirmBeneficiarySubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const token = readMetadata(confirmMetaSchema, view.private_metadata);
    if (!token.ok) {
      await ack({ response_action: 'update', view: beneficiaryProblemModal(token.problem) });
      return;
    }
    const r = await deps.app.registry.confirmNigerian(
      { token: token.value.token, user: body.user.id, submission: view.id },
      budget,
    );
    if (r.kind !== 'submitted') {
      const said = r.kind === 'expired' ? 'This form has expired; start again with /beneficiary new.' : notRequested(r);
      await ack({ response_action: 'update', view: beneficiaryProblemModal(said) });
      return;
    }
    const sealed = r.sealed;
    const done = beneficiaryRequestedModal(sealed.id, { approvalsChannel: deps.config.approvalsChannel });
    await deps.app.payments.ackThenAnnounce(() => ack({ response_action: 'update', view: done }), sealed);
    // The full account number lives on only in the request, masked once final.
    await deps.app.registry.forgetBeneficiaryDraft(token.value.token);
  };

export function registerBeneficiaryViews(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(NEW_BENEFICIARY_ACTION, newBeneficiaryAction(deps));
  app.action<BlockButtonAction>(BENEFICIARY_ACTIONS.newIdentity, newIdentityAction(deps));
  app.action<BlockButtonAction>(BENEFICIARY_ACTIONS.switchVariant, switchVariantAction(deps));
  app.view(BENEFICIARY_CALLBACK.ng, nigerianSubmit(deps));
  app.view(BENEFICIARY_CALLBACK.confirm, confirmBeneficiarySubmit(deps));
  registerCrossBorderView(app, deps);
}
