/**
 * Reading and removing address-book entries, and seeding the book from addresses already paid.
 * Removal is immediate and by any approver: the start script then cancels everything sealed with
 * the entry and not yet sent (store/book-lua.ts).
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../../domain/actor.js';
import type { AddressEntry } from '../../domain/address-book.js';
import { CHAINS, type ChainId } from '../../domain/assets.js';
import { keyAddress } from '../../domain/destination-key.js';
import { authorise } from '../decide.js';
import type { AppDeps } from '../deps.js';
import { destinationMode } from './check.js';
import { type EntriesOutcome, submitEntries } from './submit-entries.js';
import { unsentByEntry } from './unsent.js';

type Deps = Pick<AppDeps, 'store' | 'config' | 'log' | 'now' | 'approvers'>;

export const listEntries = (deps: Pick<AppDeps, 'store'>): Promise<AddressEntry[]> => deps.store.book.list();

export type RemoveOutcome =
  /**
   * `unsent`: the payments not yet sent that the removal stops; `unsentByEntry`: every entry's,
   * from the same one read just before the removal, so the notice and the redrawn list agree.
   */
  | { kind: 'removed'; entry: AddressEntry; unsent: number; unsentByEntry: ReadonlyMap<string, number> }
  | { kind: 'not-approver' }
  | { kind: 'approver-check-failed' }
  | { kind: 'missing'; id: string };

export async function removeEntry(deps: Deps, actor: Actor, id: string): Promise<RemoveOutcome> {
  const refused = await authorise(deps, actor.user);
  if (refused) return refused.kind === 'not-approver' ? { kind: 'not-approver' } : { kind: 'approver-check-failed' };
  const counts = await unsentByEntry(deps);
  const unsent = counts.get(id) ?? 0;
  if (!(await deps.store.book.remove(id, actor.user))) return { kind: 'missing', id };
  const entry = await deps.store.book.get(id);
  if (!entry) return { kind: 'missing', id };
  deps.log.info({ entry: id, by: actor.user, via: actor.via, unsent }, 'address-book entry removed');
  return { kind: 'removed', entry, unsent, unsentByEntry: counts };
}

/**
 * `rampart addresses import --from-paid`: one card listing every address Rampart paid on each
 * chain, named "paid before (<chain>)"; once it ran, the default mode is warn.
 */
export async function seedFromPaid(deps: Deps, actor: Actor, reason: string): Promise<EntriesOutcome> {
  const paid = await Promise.all(
    (Object.keys(CHAINS) as ChainId[]).map(async (chain) =>
      (await deps.store.paidKeys(chain)).map((key) => ({
        key,
        entry: { name: `paid before (${CHAINS[chain].name})`, chain, address: keyAddress(key), wallets: '*' as const },
      })),
    ),
  );
  // Addresses already in the book keep their entries.
  const standing = await Promise.all(paid.flat().map(async (p) => ({ p, s: await deps.store.book.standing(p.key) })));
  const entries = standing.filter(({ s }) => s.kind !== 'entry').map(({ p }) => p.entry);
  const outcome = await submitEntries(deps, {
    entries,
    actor,
    reason,
    origin: undefined,
    // The same paid addresses, for the same person, make at most one request.
    submission: `addresses-from-paid:${createHash('sha256')
      .update(`${actor.user}\n${entries.map((e) => `${e.chain} ${e.address}`).join('\n')}`)
      .digest('hex')}`,
  });
  if (outcome.kind === 'created') await deps.store.book.markSeeded();
  return outcome;
}

export { destinationMode };
