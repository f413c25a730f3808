/** The identity picker (external_select 'identity'): registry and live check, answered in time. */
import { identityOptionGroups } from '../blocks/identity-options.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';

/** Slack drops an options answer after 3 s; the service gets at most this much of it. */
export const IDENTITY_CHECK_BUDGET_MS = 1_500;

export function registerIdentityOptions(app: Routes, deps: Deps): void {
  app.options('identity', async ({ ack, options, body }) => {
    const query = 'value' in options ? options.value : '';
    const search = await deps.app.registry.searchIdentities(query, body.user.id, IDENTITY_CHECK_BUDGET_MS);
    await ack({ option_groups: identityOptionGroups(search, query, deps.now()) });
  });
}
