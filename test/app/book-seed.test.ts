/**
 * Seeding the address book from the addresses already paid (`rampart addresses import
 * --from-paid`): the book is seeded (the default mode becomes warn) only when the seed's approval
 * adds its entries; a denied or expired seed leaves it unseeded and may be asked for again; one
 * seed card is open at a time. Real Redis, the use cases as the CLI and the worker call them.
 */
import { describe, expect, it } from 'vitest';
import { deny } from '../../src/app/decide.js';
import { addEntries } from '../../src/app/destinations/add-entries.js';
import { destinationMode, seedFromPaid } from '../../src/app/destinations/entries.js';
import { submitEntries } from '../../src/app/destinations/submit-entries.js';
import { expireApproval } from '../../src/app/notices/expire.js';
import { cliActor } from '../../src/domain/actor.js';
import { A1, A2, REQUESTER, useWorld } from './support.js';

const w = useWorld('book-seed');

const PAID = '0x52908400098527886e0f7030069857d2e4169ee7';
const OTHER = '0x99ed2e97162533ba814af8092b93b9a3090dedcf';

/** A seed asked for by `who`, which must make a card: its request id. */
async function seed(who: string): Promise<string> {
  const outcome = await seedFromPaid(w.deps, cliActor(who), 'addresses already paid');
  if (outcome.kind !== 'created') throw new Error(`no seed card: ${JSON.stringify(outcome)}`);
  return outcome.sealed.id;
}

/** The approved addition executed as the worker executes it (app/execute/call.ts). */
async function approved(id: string) {
  const record = await w.store.get(id);
  if (!record) throw new Error(`${id} is gone`);
  return addEntries(w.deps, record.sealed, A1);
}

describe('seeding the book from what was paid', () => {
  it('seeds only when the seed is approved; a denied or expired one may be asked for again, one at a time', async () => {
    await w.store.addPayee('base', PAID);
    const first = await seed(REQUESTER);
    // Asked for, not approved: the default mode is still open.
    expect(await w.store.book.seeded()).toBe(false);
    expect(await destinationMode(w.deps)).toBe('open');
    // A second seed while the first card is open is refused, naming it.
    expect(await seedFromPaid(w.deps, cliActor(A2), 'again')).toEqual({
      kind: 'refused',
      reason: `${first} already asks to add the addresses paid before; approve or deny it first.`,
    });

    expect(await deny(w.deps, first, A1, 'not now')).toMatchObject({ kind: 'denied' });
    expect(await w.store.book.seeded()).toBe(false);
    // Denied: the same person may ask again, and gets a new card.
    const second = await seed(REQUESTER);
    expect(second).not.toBe(first);

    expect(await expireApproval({ ...w.deps, jobs: { notify: async () => {} } }, second)).toBe(true);
    expect(await w.store.book.seeded()).toBe(false);
    const third = await seed(REQUESTER);
    expect(new Set([first, second, third]).size).toBe(3);

    // Another addition approved meanwhile does not seed the book.
    const other = await submitEntries(w.deps, {
      entries: [{ name: 'Acme rent', chain: 'base', address: OTHER, wallets: '*' }],
      actor: cliActor(REQUESTER),
      reason: 'rent',
      origin: undefined,
      submission: 'book-seed-other',
    });
    if (other.kind !== 'created') throw new Error('no card for the other addition');
    expect(await approved(other.sealed.id)).toMatchObject({ ok: true });
    expect(await w.store.book.seeded()).toBe(false);

    // The seed approved: its entry is added and the book is seeded in the same step.
    expect(await approved(third)).toMatchObject({ ok: true });
    expect(await w.store.book.seeded()).toBe(true);
    expect(await destinationMode(w.deps)).toBe('warn');
    expect(await w.store.book.standing(`evm:${PAID}`)).toMatchObject({
      kind: 'entry',
      entry: { name: 'paid before (Base)', requestId: third },
    });
  });

  it('makes one card of two seeds asked for at once; the other is refused', async () => {
    await w.store.addPayee('base', '0x1111111111111111111111111111111111111111');
    const both = await Promise.all([
      seedFromPaid(w.deps, cliActor(REQUESTER), 'at once'),
      seedFromPaid(w.deps, cliActor(A2), 'at once'),
    ]);
    expect(both.map((o) => o.kind).sort()).toEqual(['created', 'refused']);
    // The address the approved seed added keeps its entry: the new card asks for the other only.
    const created = both.find((o) => o.kind === 'created');
    expect(created?.kind === 'created' && created.entries.map((e) => e.address)).toEqual([
      '0x1111111111111111111111111111111111111111',
    ]);
  });
});
