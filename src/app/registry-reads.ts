/**
 * What Rampart's registry holds, as the adapters read it — `/identity list`,
 * `/beneficiary list` and the offramp form's beneficiary search — without touching the store.
 */
import type { BeneficiaryEntry, IdentityEntry } from '../domain/registry-entries.js';
import type { Registry } from '../store/registry.js';

export interface RegistryReadDeps {
  registry: Pick<Registry, 'identities' | 'beneficiaries' | 'searchBeneficiaries'>;
}

export const listIdentities = (deps: RegistryReadDeps): Promise<IdentityEntry[]> => deps.registry.identities();

export const listBeneficiaries = (deps: RegistryReadDeps): Promise<BeneficiaryEntry[]> => deps.registry.beneficiaries();

export const searchBeneficiaries = (deps: RegistryReadDeps, query: string): Promise<BeneficiaryEntry[]> =>
  deps.registry.searchBeneficiaries(query);
