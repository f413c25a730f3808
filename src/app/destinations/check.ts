/**
 * The address book at submission, for every door that seals a payment (the form, the API, a batch
 * row, request again): the mode in force, and the one verdict of domain/address-book.ts
 * destinationRule for a destination. The start script checks again what was sealed.
 */
import {
  type AddressEntry,
  type DestinationMode,
  type DestinationVerdict,
  destinationRule,
  type NoWait,
} from '../../domain/address-book.js';
import type { ChainId } from '../../domain/assets.js';
import type { RowError } from '../../domain/batch-file.js';
import { destinationKey } from '../../domain/destination-key.js';
import type { RequestStore } from '../../store/requests.js';
import type { Clock } from '../ports.js';

export interface BookDeps {
  store: Pick<RequestStore, 'book'>;
  config: { destinations?: { mode: DestinationMode | undefined } };
  now: Clock;
}

/** DESTINATIONS, or by default open until the card of `rampart addresses import --from-paid` is approved, then warn. */
export async function destinationMode(deps: BookDeps): Promise<DestinationMode> {
  return modeOrDefault(deps.config.destinations?.mode, deps.store.book);
}

/** The mode set, or the default from whether the book was seeded (the one place that decides it). */
export async function modeOrDefault(
  set: DestinationMode | undefined,
  book: Pick<BookDeps['store']['book'], 'seeded'>,
): Promise<DestinationMode> {
  if (set) return set;
  return (await book.seeded()) ? 'warn' : 'open';
}

export type DestinationCheck = DestinationVerdict & { entry?: AddressEntry };

/**
 * One destination's verdict; `as`: a single payment (which may wait for a cooling entry), a batch
 * row or a series' run (neither waits); `ownWallet`: the team's own configured wallet, an entry implicitly.
 */
export async function checkDestination(
  deps: BookDeps,
  d: { chain: ChainId; address: string; walletId: string; as: 'single' | NoWait; ownWallet?: boolean },
): Promise<DestinationCheck> {
  if (d.ownWallet) return { ok: true };
  const [mode, standing] = await Promise.all([
    destinationMode(deps),
    deps.store.book.standing(destinationKey(d.chain, d.address)),
  ]);
  const verdict = destinationRule(mode, standing, { walletId: d.walletId, as: d.as }, deps.now());
  return standing.kind === 'entry' ? { ...verdict, entry: standing.entry } : verdict;
}

/** A batch's transfer rows against the book: one sentence per refused row. */
export async function checkRows(
  deps: BookDeps,
  rows: readonly { row: number; destination: string }[],
  chain: ChainId,
  walletId: string,
): Promise<RowError[]> {
  const checked = await Promise.all(
    rows.map(async (r) => ({
      r,
      v: await checkDestination(deps, { chain, address: r.destination, walletId, as: 'row' }),
    })),
  );
  return checked.flatMap(({ r, v }) =>
    v.ok ? [] : [{ row: r.row, column: 'receiver', message: `Row ${r.row} receiver: ${v.message}` }],
  );
}
