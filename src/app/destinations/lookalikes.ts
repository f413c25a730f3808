/**
 * Lookalikes at submission (domain/address-book.ts lookalikeOf): a destination with the same
 * first 6 and last 4 characters as an address-book entry, an address paid before on its chain or
 * one requested on its chain in the last 90 days (paid or not), without being it. Read once per
 * form or batch: the book's entries, the chain's paid set and its recent destinations.
 */

import { shortAddress } from '../../domain/address.js';
import {
  type AddressEntry,
  entryLabel,
  type KnownDestination,
  lookalikeOf,
  RECENT_DESTINATIONS_MS,
} from '../../domain/address-book.js';
import type { ChainId } from '../../domain/assets.js';
import { destinationKey, keyAddress } from '../../domain/destination-key.js';
import type { RequestStore } from '../../store/requests.js';
import type { Clock } from '../ports.js';

type LookalikeStore = Pick<RequestStore, 'book' | 'paidKeys' | 'recent'>;

export interface Lookalike {
  row: number;
  /** The address as typed. */
  address: string;
  /** "Acme payroll wallet 0x99ED…EdcF". */
  of: string;
  /** The known destination's full address. */
  ofAddress: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function known(
  store: LookalikeStore,
  chain: ChainId,
  now: number,
  book: Promise<AddressEntry[]> = store.book.list(),
): Promise<KnownDestination[]> {
  const [entries, paid, recent] = await Promise.all([
    book,
    store.paidKeys(chain),
    store.recent.destinations(chain, now - RECENT_DESTINATIONS_MS),
  ]);
  return [
    ...entries
      .filter((e) => e.removedAt === undefined)
      .map((e) => ({ key: e.key, label: entryLabel(e), address: e.address })),
    ...paid.map((key) => ({ key, label: `paid before ${shortAddress(keyAddress(key))}`, address: keyAddress(key) })),
    ...recent.map(({ key, at }) => ({
      key,
      label: `requested ${day(at)} ${shortAddress(keyAddress(key))}`,
      address: keyAddress(key),
    })),
  ];
}

/** The rows (a single transfer is row 1) whose destination looks like a known one. */
export async function lookalikes(
  deps: { store: LookalikeStore; now: Clock },
  chain: ChainId,
  rows: readonly { row: number; destination: string }[],
): Promise<Lookalike[]> {
  return lookalikesAcross(
    deps,
    rows.map((r) => ({ ...r, chain })),
  );
}

/**
 * Rows on several chains (an address-book addition): the book read once for all of them, each
 * chain's paid set and recent destinations beside it.
 */
export async function lookalikesAcross(
  deps: { store: LookalikeStore; now: Clock },
  rows: readonly { row: number; chain: ChainId; destination: string }[],
): Promise<Lookalike[]> {
  if (!deps.store.book || rows.length === 0) return [];
  const book = deps.store.book.list();
  book.catch(() => {}); // awaited per chain below; never an unhandled rejection
  const chains = [...new Set(rows.map((r) => r.chain))];
  const now = deps.now();
  const found = await Promise.all(
    chains.map(async (chain) => {
      const list = await known(deps.store, chain, now, book);
      return rows.flatMap((r) => {
        if (r.chain !== chain) return [];
        const hit = lookalikeOf(destinationKey(chain, r.destination), list);
        return hit ? [{ row: r.row, address: r.destination, of: hit.label, ofAddress: hit.address }] : [];
      });
    }),
  );
  return found.flat().sort((a, b) => a.row - b.row);
}
