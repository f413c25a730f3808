/**
 * The address book's cells against the main harness (DESTINATIONS open): an entry removed from
 * the book is refused at every payment door; a batch row to a cooling entry is refused; the
 * adder's own Approve on an entry's card and a second removal answer their codes. Entries are
 * staged in the book's store as an approved addition leaves them.
 */
import { cli } from '../cli/support.js';
import { addresses } from '../support/batches.js';
import { APPROVALS, blocksText, cardFor, envFor, eventually, PEOPLE } from '../support/harness.js';
import { currentCard } from '../support/requests.js';
import { cliCode, codeOfText } from './readers.js';
import { listedWhile } from './screening-list.js';
import type { Driver, World } from './world.js';
import {
  AMOUNT,
  cards,
  clickCard,
  MAIN_ENV,
  newestCardId,
  viaApiBatch,
  viaApiTransfer,
  viaBatchFile,
  viaModal,
  viaPrefill,
} from './world.js';

let salt = 700;
const R = PEOPLE.requester;

/** A fresh address (or `address`) with an entry in the book, cooling for `cooldownMs` (0: usable at once). */
export async function entry(w: World, cooldownMs: number, address = addresses(1, ++salt)[0] ?? '') {
  const by = { addedBy: PEOPLE.requester, approvedBy: PEOPLE.approver1, requestId: 'R-0' };
  const added = await w.main.rampart.deps.store.book.add(
    [{ name: `Matrix ${salt}`, chain: 'base', address, wallets: '*' }],
    by,
    cooldownMs,
  );
  if (!added.ok) throw new Error('the staged entry was refused');
  return { address, id: added.ids[0] ?? '' };
}

/** An address whose entry was removed: refused in every mode until added and cooled again. */
export async function removed(w: World): Promise<string> {
  const e = await entry(w, 0);
  await w.main.rampart.deps.store.book.remove(e.id, PEOPLE.approver2);
  return e.address;
}

const cooling = async (w: World) => (await entry(w, 3_600_000)).address;
const batchOf = (address: string) => [addresses(1, ++salt)[0] ?? '', address];

/** An address no entry names, paid in BOOK_ENV's world (DESTINATIONS=book). */
export const outside = () => addresses(1, ++salt)[0] ?? '';

export const BOOK_SUBMIT: Record<'address_book' | 'entry_removed' | 'entry_cooling', Record<string, Driver>> = {
  address_book: {
    'slack-modal': async (w) => viaModal(w.book, R, 'ops', 'base:usdc', AMOUNT.small, outside()),
    'slash-prefill': async (w) => viaPrefill(w.book, R, 'ops', 'base:usdc', AMOUNT.small, outside()),
    'api-transfer': async (w) => viaApiTransfer(w.bookApi, { receiver: outside() }),
    'api-batch': async (w) => viaApiBatch(w.bookApi, {}),
    'slack-batch-file': async (w) => viaBatchFile(w.book, R, {}),
  },
  entry_removed: {
    'slack-modal': async (w) => viaModal(w.main, R, 'ops', 'base:usdc', AMOUNT.small, await removed(w)),
    'slash-prefill': async (w) => viaPrefill(w.main, R, 'ops', 'base:usdc', AMOUNT.small, await removed(w)),
    'api-transfer': async (w) => viaApiTransfer(w.api, { receiver: await removed(w) }),
    'api-batch': async (w) =>
      viaApiBatch(w.api, {
        rows: batchOf(await removed(w)).map((receiver) => ({ receiver, amount: '1' })),
      }),
    'slack-batch-file': async (w) => viaBatchFile(w.main, R, { receivers: batchOf(await removed(w)) }),
  },
  entry_cooling: {
    'api-batch': async (w) =>
      viaApiBatch(w.api, {
        rows: batchOf(await cooling(w)).map((receiver) => ({ receiver, amount: '1' })),
      }),
    'slack-batch-file': async (w) => viaBatchFile(w.main, R, { receivers: batchOf(await cooling(w)) }),
  },
};

/**
 * The CLI is its own process: it reads the main harness's settings (the quorum, the open cap), and
 * without its step-up setting unless `stepUp` (any step-up setting makes every entry need a
 * passkey, which only the step_up cell wants).
 */
const cliEnv = (w: World, stepUp = false) => {
  const { STEP_UP_ABOVE, ...rest } = MAIN_ENV;
  return envFor(w.main.prefix, w.main.sandbox, w.main.fake, stepUp ? { ...rest, STEP_UP_ABOVE } : rest);
};

/** A pending addition of one entry by the requester through `rampart addresses add`; its id. */
export async function pendingEntry(w: World, stepUp = false, address = addresses(1, ++salt)[0] ?? ''): Promise<string> {
  const before = cards(w.main);
  const r = await cli(
    ['addresses', 'add', `Matrix ${salt}`, 'base', address, '--as', PEOPLE.requester],
    cliEnv(w, stepUp),
  );
  if (r.code !== 0) throw new Error(`the setup's entry was refused: ${r.stderr}`);
  return newestCardId(w.main, before);
}

/**
 * Approve on an entry's card by each approver the quorum needs, then the addition's end: the code
 * its card names when it failed, or `accepted (<state>)`.
 */
async function approveEntry(w: World, id: string): Promise<string> {
  const h = w.main;
  const store = h.rampart.deps.store;
  for (const who of [PEOPLE.approver1, PEOPLE.approver2]) {
    const before = (await store.get(id))?.votes.length ?? 0;
    if ((await store.get(id))?.state !== 'pending') break;
    const message = cardFor(h.fake, id);
    if (!message) throw new Error(`no card for ${id}`);
    await h.driver.click(who, {
      action_id: 'request_approve',
      block_id: 'matrix',
      message,
      channel: APPROVALS,
      value: id,
    });
    await eventually(async () => ((await store.get(id))?.votes.length ?? 0) > before || undefined);
  }
  const done = await eventually(async () => {
    const r = await store.get(id);
    return r && ['succeeded', 'failed'].includes(r.state) ? r : undefined;
  });
  if (done.state !== 'failed') return `accepted (${done.state})`;
  // The card is redrawn after the record: its words name the rule once it is.
  return eventually(
    () => {
      const said = codeOfText(blocksText(currentCard(h, id)));
      return said.startsWith('unread') ? undefined : said;
    },
    10_000,
    `${id}'s failed card`,
  );
}

/**
 * An address paid before and a lookalike of it (the same first 6 and last 4 characters, another
 * middle): the address-poisoning pattern. Fresh each time, so no cell finds another's.
 */
async function paidAndLookalike(w: World): Promise<{ paid: string; alike: string }> {
  const paid = (addresses(1, ++salt)[0] ?? '').toLowerCase();
  await w.main.rampart.deps.store.addPayee('base', paid);
  return { paid, alike: `${paid.slice(0, 6)}${'0'.repeat(32)}${paid.slice(-4)}` };
}

/** Approve clicked with the button's plain value, as if the confirm dialog had been skipped. */
const approveUnconfirmed = (w: World, id: string) => clickCard(w.main, PEOPLE.approver1, id, 'request_approve', id);

export const BOOK_DECIDE: Record<
  'self_approval' | 'entry_removed' | 'screening' | 'lookalike',
  Record<string, Driver>
> = {
  // A payment to a lookalike, or an entry that is one, approved without the warnings confirmed.
  lookalike: {
    'approve-button': async (w) => {
      const { alike } = await paidAndLookalike(w);
      const before = cards(w.main);
      const code = await viaPrefill(w.main, PEOPLE.requester, 'ops', 'base:usdc', AMOUNT.small, alike);
      if (code !== 'accepted') return `not submitted: ${code}`;
      return approveUnconfirmed(w, await newestCardId(w.main, before));
    },
    'address-approve': async (w) =>
      approveUnconfirmed(w, await pendingEntry(w, false, (await paidAndLookalike(w)).alike)),
  },
  // Listed while its card waited: the approval lands, and the addition adds nothing.
  screening: {
    'address-approve': async (w) => {
      const address = addresses(1, ++salt)[0] ?? '';
      const id = await pendingEntry(w, false, address);
      return listedWhile(w.main, [address], () => approveEntry(w, id));
    },
  },
  // An approver adds an entry, then clicks Approve on its card: the vote script refuses them.
  self_approval: {
    'address-approve': async (w) => {
      const before = cards(w.main);
      const address = addresses(1, ++salt)[0] ?? '';
      const r = await cli(['addresses', 'add', `Matrix ${salt}`, 'base', address, '--as', PEOPLE.approver1], cliEnv(w));
      if (r.code !== 0) return `not submitted: ${r.stderr}`;
      return clickCard(w.main, PEOPLE.approver1, await newestCardId(w.main, before), 'request_approve');
    },
  },
  // Removed already: a second removal finds no live entry.
  entry_removed: {
    'address-remove': async (w) => {
      const e = await entry(w, 0);
      await w.main.rampart.deps.store.book.remove(e.id, PEOPLE.approver2);
      return cliCode(await cli(['addresses', 'remove', e.id, '--as', PEOPLE.approver1], cliEnv(w)));
    },
  },
};
