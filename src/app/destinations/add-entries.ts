/**
 * An approved address-book addition: its entries recorded, cooling off for ADDRESS_COOLDOWN from
 * Redis's clock; all or none (an address added meanwhile by another request refuses the whole
 * addition, as a registration does). Its outcome message is the cooling notice the thread and
 * the approvers read.
 */
import { type AddressEntry, coolingNotice, type EntryInput, entryLabel } from '../../domain/address-book.js';
import type { ChainId } from '../../domain/assets.js';
import type { RequestOutcome, SealedRequest } from '../../domain/request.js';
import type { StartScreening } from '../../store/executions.js';
import type { RequestStore } from '../../store/requests.js';
import type { Clock } from '../ports.js';
import { listedEntry } from './screen-entries.js';

/** The default cooling-off: a day, as ADDRESS_COOLDOWN documents. */
export const DEFAULT_ADDRESS_COOLDOWN_MS = 24 * 3_600_000;

export async function addEntries(
  deps: { store: RequestStore; now: Clock; addressCooldownMs?: number; screening?: StartScreening | undefined },
  sealed: SealedRequest,
  decidedBy: string | undefined,
): Promise<RequestOutcome & { ok: boolean }> {
  const { call } = sealed;
  if (call.kind !== 'address-book') return { ok: false, message: 'not an address-book addition' };
  const inputs: EntryInput[] = call.body.entries.map((e) => ({ ...e, chain: e.chain as ChainId }));
  // Screened again on the list as it is at approval: an address listed while the card waited.
  const listed = await listedEntry(deps, inputs);
  if (listed) {
    const e = inputs[listed.index];
    return {
      ok: false,
      message: `${e ? entryLabel(e) : 'An entry'}: ${listed.message} Nothing was added to the address book.`,
    };
  }
  const by = { addedBy: sealed.requester, approvedBy: decidedBy ?? '', requestId: sealed.id };
  const added = await deps.store.book.add(inputs, by, deps.addressCooldownMs ?? DEFAULT_ADDRESS_COOLDOWN_MS);
  if (!added.ok)
    return {
      ok: false,
      message: `${added.taken.length === 1 ? 'an address was' : `${added.taken.length} addresses were`} added to the book meanwhile by another request, so nothing was added`,
    };
  const notices = inputs.map((e, i) => {
    const entry: AddressEntry = {
      ...e,
      ...by,
      id: added.ids[i] ?? '',
      key: '',
      approvedAt: 0,
      usableAt: added.usableAt,
    };
    return coolingNotice(entry);
  });
  return { ok: true, message: notices.join('\n') };
}
