/** The offramp form's beneficiary picker (external_select 'beneficiary'): Rampart's registry. */
import { beneficiaryOptionGroups } from '../blocks/beneficiary-options.js';
import type { Deps } from '../deps.js';
import type { Routes } from '../routes.js';

export function registerBeneficiaryOptions(app: Routes, deps: Deps): void {
  app.options('beneficiary', async ({ ack, options }) => {
    const query = 'value' in options ? options.value : '';
    const found = await deps.app.registry.searchBeneficiaries(query);
    await ack({ option_groups: beneficiaryOptionGroups(found, query) });
  });
}
