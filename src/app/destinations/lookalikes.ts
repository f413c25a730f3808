/**
 * Lookalikes at submission (domain/address-book.ts lookalikeOf): a destination with the same
 * first 6 and last 4 characters as an address-book entry or an address paid before on its chain,
 * without being it. Read once per form or batch: the book's entries and the chain's paid set.
 */

import { shortAddress } from '../../domain/address.js';
import { entryLabel, type KnownDestination, lookalikeOf } from '../../domain/address-book.js';
import type { ChainId } from '../../domain/assets.js';
import { destinationKey, keyAddress } from '../../domain/destination-key.js';
import type { RequestStore } from '../../store/requests.js';

export interface Lookalike {
  row: number;
  /** The address as typed. */
  address: string;
  /** "Acme payroll wallet 0x99ED…EdcF". */
  of: string;
  /** The known destination's full address. */
  ofAddress: string;
}

async function known(store: Pick<RequestStore, 'book' | 'paidKeys'>, chain: ChainId): Promise<KnownDestination[]> {
  const [entries, paid] = await Promise.all([store.book.list(), store.paidKeys(chain)]);
  return [
    ...entries
      .filter((e) => e.removedAt === undefined)
      .map((e) => ({ key: e.key, label: entryLabel(e), address: e.address })),
    ...paid.map((key) => ({ key, label: `paid before ${shortAddress(keyAddress(key))}`, address: keyAddress(key) })),
  ];
}

/** The rows (a single transfer is row 1) whose destination looks like a known one. */
export async function lookalikes(
  deps: { store: Pick<RequestStore, 'book' | 'paidKeys'> },
  chain: ChainId,
  rows: readonly { row: number; destination: string }[],
): Promise<Lookalike[]> {
  if (!deps.store.book || rows.length === 0) return [];
  const list = await known(deps.store, chain);
  return rows.flatMap((r) => {
    const hit = lookalikeOf(destinationKey(chain, r.destination), list);
    return hit ? [{ row: r.row, address: r.destination, of: hit.label, ofAddress: hit.address }] : [];
  });
}
