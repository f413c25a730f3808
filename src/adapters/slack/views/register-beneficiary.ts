/**
 * Registering a beneficiary that already exists at the service: from `/beneficiary
 * register` or the offramp form's "Use an existing beneficiary id…". Read the form → the
 * registration use case (`app.submitRegistration`, shared with the CLI) → field errors, or one approval-gated request.
 */
import type { BlockButtonAction } from '@slack/bolt';
import { SubmitBudget } from '../../../app/submit-budget.js';
import { slackActor } from '../../../domain/actor.js';
import type { StatedField } from '../../../domain/beneficiary-registration.js';
import { section } from '../blocks/common.js';
import { identityRefusal, resultModal } from '../blocks/identity.js';
import { isNote } from '../blocks/identity-options.js';
import { REGISTER_ACTION, REGISTER_CALLBACK, registerModal } from '../blocks/register-beneficiary.js';
import { notCreatedSentence } from '../blocks/submitted.js';
import type { Deps } from '../deps.js';
import { IDENTITY_CHECK_BUDGET_MS } from '../options/identity.js';
import type { ActionHandler, Routes, ViewHandler } from '../routes.js';
import { field, metaOf } from './beneficiary-request.js';

// The form's block ids; the identity picker is the shared 'identity' block.
const BLOCK: Record<StatedField, string> = {
  beneficiary_id: 'beneficiary_id',
  identity_id: 'identity',
  label: 'label',
  bank_name: 'bank_name',
  account_last4: 'account_last4',
};

export const registerExistingAction =
  (deps: Deps): ActionHandler<BlockButtonAction> =>
  async ({ ack, body, client }) => {
    await ack();
    const meta = metaOf(body.view?.private_metadata ?? '');
    await client.views
      .push({ trigger_id: body.trigger_id, view: registerModal(meta) })
      .catch((err: unknown) => deps.log.error({ err }, 'could not push the existing-beneficiary modal'));
  };

export const registerExistingSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const v = view.state.values;
    const chosen = v.identity?.identity?.selected_option?.value ?? '';
    const errors: Record<string, string> = {};
    if (chosen === '') errors.identity = identityRefusal('missing');
    else if (isNote(chosen))
      errors.identity =
        'That line explains the search; choose an identity, or type its id to check it with the service.';
    const reason = field(v, 'reason');
    if (reason.length < 3) errors.reason = 'Say why this payout destination is needed; approvers see it.';
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    const input = {
      beneficiary_id: field(v, 'beneficiary_id'),
      identity_id: chosen,
      label: field(v, 'label'),
      bank_name: field(v, 'bank_name'),
      account_last4: field(v, 'account_last4'),
    };
    // The same use case as `rampart beneficiaries import`.
    const submitted = await deps.app.registry.submitRegistration({
      rows: [{ line: 0, input }],
      actor: slackActor(body.user.id),
      reason,
      origin: metaOf(view.private_metadata).channel,
      submission: view.id,
      identityDeadlineMs: IDENTITY_CHECK_BUDGET_MS,
      budget,
    });
    if (submitted.kind === 'invalid') {
      for (const p of submitted.problems) errors[BLOCK[p.field]] ??= p.message;
      await ack({ response_action: 'errors', errors });
      return;
    }
    if (submitted.kind !== 'created') {
      await ack({ response_action: 'errors', errors: { reason: notCreatedSentence(submitted) } });
      return;
    }
    const sealed = submitted.sealed;
    const waiting = resultModal('Existing beneficiary', [
      section(
        `:hourglass_flowing_sand: *${sealed.id}* is waiting for approval in <#${deps.config.approvalsChannel}>. Once approved, the beneficiary appears in the offramp list, marked as stated by you.`,
      ),
    ]);
    await deps.app.payments.ackThenAnnounce(() => ack({ response_action: 'update', view: waiting }), sealed);
  };

export function registerRegisterBeneficiaryView(app: Routes, deps: Deps): void {
  app.action<BlockButtonAction>(REGISTER_ACTION, registerExistingAction(deps));
  app.view(REGISTER_CALLBACK, registerExistingSubmit(deps));
}
