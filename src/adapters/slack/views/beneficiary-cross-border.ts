/** The cross-border beneficiary form (spec 2.10 variant 2): read the form → the use case → answer. */
import { SubmitBudget } from '../../../app/submit-budget.js';
import { BENEFICIARY_CALLBACK, beneficiaryRequestedModal } from '../blocks/beneficiary.js';
import type { Deps } from '../deps.js';
import type { Routes, ViewHandler } from '../routes.js';
import {
  field,
  fieldsOf,
  identityPicked,
  invalidErrors,
  notRequested,
  readBeneficiaryMeta,
} from './beneficiary-request.js';

export const crossBorderSubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const budget = new SubmitBudget();
    const meta = readBeneficiaryMeta(view.private_metadata);
    if (!meta.ok) {
      await ack({ response_action: 'errors', errors: { reason: meta.problem } });
      return;
    }
    const v = view.state.values;
    const picked = identityPicked(v);
    const r = await deps.app.registry.submitCrossBorder(
      {
        identity: picked.value,
        fields: fieldsOf(v),
        reason: field(v, 'reason'),
        requester: body.user.id,
        channel: meta.value.channel,
        submission: view.id,
      },
      budget,
    );
    if (r.kind === 'invalid') {
      await ack({ response_action: 'errors', errors: invalidErrors(r, picked.note) });
      return;
    }
    if (r.kind !== 'submitted') {
      await ack({ response_action: 'errors', errors: { reason: notRequested(r) } });
      return;
    }
    const sealed = r.sealed;
    const done = beneficiaryRequestedModal(sealed.id, { approvalsChannel: deps.config.approvalsChannel });
    await deps.app.payments.ackThenAnnounce(() => ack({ response_action: 'update', view: done }), sealed);
  };

export function registerCrossBorderView(app: Routes, deps: Deps): void {
  app.view(BENEFICIARY_CALLBACK.xb, crossBorderSubmit(deps));
}
