/**
 * "New BVN identity" (spec 4.5): read the form → deps.app.registry.checkNewIdentity → field errors, or ack
 * with "Creating…" → deps.app.registry.createIdentity → the result in place (src/app/create-identity.ts).
 */
import { IDENTITY_CALLBACK, identityCreatedModal, identityCreatingModal } from '../blocks/identity.js';
import type { Deps } from '../deps.js';
import type { Routes, ViewHandler } from '../routes.js';

export const identitySubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body, client }) => {
    const v = view.state.values;
    const form = {
      name: v.name?.name?.value ?? '',
      bvn: v.bvn?.bvn?.value ?? '',
      dob: v.dob?.dob?.selected_date,
    };
    const checked = await deps.app.registry.checkNewIdentity(form, body.user.id);
    if (checked.kind !== 'ready') {
      const errors =
        checked.kind === 'invalid'
          ? checked.errors
          : checked.kind === 'not-allowed'
            ? { name: 'Only approvers may create identities; ask one of them.' }
            : {
                name: 'Rampart could not check the identity creators’ user group with Slack just now, so nothing was created; try again in a minute.',
              };
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack({ response_action: 'update', view: identityCreatingModal() });
    const created = await deps.app.registry.createIdentity(checked.body, body.user.id);
    try {
      await client.views.update({ view_id: view.id, view: identityCreatedModal(created) });
    } catch (err) {
      deps.log.error({ err }, 'could not show the identity result');
    }
  };

export function registerIdentityView(app: Routes, deps: Deps): void {
  app.view(IDENTITY_CALLBACK, identitySubmit(deps));
}
