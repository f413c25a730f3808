/** The offramp form's beneficiary picker (external_select 'beneficiary'): Rampart's registry. */
import type { App } from '@slack/bolt';
import { beneficiaryOptionGroups } from '../blocks/beneficiary-options.js';
import type { Deps } from '../deps.js';

export function registerBeneficiaryOptions(app: App, deps: Deps): void {
  app.options('beneficiary', async ({ ack, options }) => {
    const query = 'value' in options ? options.value : '';
    const found = await deps.app.searchBeneficiaries(query);
    await ack({ option_groups: beneficiaryOptionGroups(found, query) });
  });
}
