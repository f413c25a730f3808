/**
 * Reading and removing address-book entries, and seeding the book from addresses already paid.
 * Removal is immediate and by any approver: the start script then cancels everything sealed with
 * the entry and not yet sent (store/book-lua.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/actor.js';
import type { AddressEntry } from '../../domain/address-book.js';
import { CHAINS, type ChainId } from '../../domain/assets.js';
import { keyAddress } from '../../domain/destination-key.js';
import { isFinal } from '../../domain/request.js';
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

/** How long a seed card may take to be created before its claim lapses (the CLI waits far less). */
const SEED_CLAIM_MS = 5 * 60_000;

/**
 * `rampart addresses import --from-paid`: one card listing every address Rampart paid on each
 * chain, named "paid before (<chain>)". The book is seeded (the default mode becomes warn) only
 * when that card's approval adds the entries (store/lua/book-add.lua), so a denied or expired
 * seed leaves it open and a new seed may be asked for; while one seed card is open, another is
 * refused (store/lua/book-seed.lua holds the open one's id).
 */
export async function seedFromPaid(deps: Deps, actor: Actor, reason: string): Promise<EntriesOutcome> {
  const claim = `claim:${randomUUID()}`;
  const held = await claimSeed(deps, claim);
  if ('refused' in held) return { kind: 'refused', reason: held.refused };
  let outcome: EntriesOutcome | undefined;
  try {
    outcome = await seedCard(deps, actor, reason, held.after);
    return outcome;
  } finally {
    // The card's id replaces the claim (an existing one's when this repeats it); otherwise the
    // seed it followed is put back, so the next import is a new submission after it.
    const card = outcome?.kind === 'created' ? outcome.sealed.id : outcome?.kind === 'taken' ? outcome.id : held.after;
    const published = await deps.store.book.swapSeed(claim, card);
    if (!published.ok)
      deps.log.warn({ claim, now: published.now }, 'the address-book seed claim lapsed before its card was created');
  }
}

const SEED_BUSY = 'Another import --from-paid is being sent for approval right now; try again in a minute.';

/**
 * Claims the open seed: `after`, the seed it follows ('' for none; a denied, expired or failed
 * one), or a sentence when another seed card is open or being created.
 */
async function claimSeed(deps: Deps, claim: string): Promise<{ after: string } | { refused: string }> {
  let expected = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const swapped = await deps.store.book.swapSeed(expected, claim, SEED_CLAIM_MS);
    if (swapped.ok) return { after: expected };
    const now = swapped.now;
    if (now.startsWith('claim:')) return { refused: SEED_BUSY };
    const open = now === '' ? undefined : await deps.store.get(now);
    if (open && !isFinal(open.state))
      return { refused: `${now} already asks to add the addresses paid before; approve or deny it first.` };
    expected = now;
  }
  return { refused: SEED_BUSY };
}

async function seedCard(deps: Deps, actor: Actor, reason: string, after: string): Promise<EntriesOutcome> {
  const paid = await Promise.all(
    (Object.keys(CHAINS) as ChainId[]).map(async (chain) =>
      (await deps.store.paidKeys(chain)).map((key) => ({
        key,
        entry: { name: `paid before (${CHAINS[chain].name})`, chain, address: keyAddress(key), wallets: '*' as const },
      })),
    ),
  );
  // Addresses already in the book keep their entries (one read of the book for all of them).
  const all = paid.flat();
  const live = await deps.store.book.liveNames(all.map((p) => p.key));
  const entries = all.filter((_, i) => live[i] === undefined).map((p) => p.entry);
  return submitEntries(deps, {
    entries,
    actor,
    reason,
    origin: undefined,
    // The same paid addresses, for the same person, after the same earlier seed (a denied one
    // may be asked for again), make at most one request.
    submission: `addresses-from-paid:${createHash('sha256')
      .update(`${actor.user}\n${after}\n${entries.map((e) => `${e.chain} ${e.address}`).join('\n')}`)
      .digest('hex')}`,
  });
}

export { destinationMode };
