/**
 * New beneficiaries cool off as address-book entries do: outside DESTINATIONS=open, a beneficiary
 * registered through an approval (created at the service, or registered as it already exists)
 * is usable ADDRESS_COOLDOWN after that approval, by Redis's clock. The start script holds an
 * offramp to it until then (a single waits; a batch row is cancelled), and a batch row is refused
 * at submission with the time it becomes usable. In `open` (today's behaviour) nothing cools.
 */
import type { DestinationMode } from '../../domain/address-book.js';
import type { Registry } from '../../store/registry.js';
import type { RequestStore } from '../../store/requests.js';
import { DEFAULT_ADDRESS_COOLDOWN_MS } from './add-entries.js';
import { modeOrDefault } from './check.js';

/** How long a beneficiary registered now cools off; undefined in open mode. */
export async function newBeneficiaryCooldown(deps: {
  store: Pick<RequestStore, 'book'>;
  destinationsMode?: DestinationMode | undefined;
  addressCooldownMs?: number | undefined;
}): Promise<number | undefined> {
  const mode = await modeOrDefault(deps.destinationsMode, deps.store.book);
  return mode === 'open' ? undefined : (deps.addressCooldownMs ?? DEFAULT_ADDRESS_COOLDOWN_MS);
}

/** The beneficiary's cooling-off when it is still cooling at `now`. */
export async function coolingBeneficiary(
  deps: { registry: Pick<Registry, 'beneficiaryCooling'> },
  id: string,
  now: number,
): Promise<{ approvedAt: number; usableAt: number } | undefined> {
  const c = await deps.registry.beneficiaryCooling(id);
  return c && now < c.usableAt ? c : undefined;
}
