/**
 * The address book end to end, on the real Bolt receiver, the real worker and the sandbox service:
 * entries added with `rampart addresses add|import` and approved on their card (never by the
 * adder), cooled off for ADDRESS_COOLDOWN, removed with `rampart addresses remove`; with
 * DESTINATIONS=book an outside address is refused from Slack, the API and a batch row with one
 * sentence; a payment to a cooling entry waits and then runs once; a removal stops a waiting
 * payment and a queued batch row (the start script's check), and adding the address again
 * releases neither.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElement } from '../../devkit/index.js';
import { NOT_IN_BOOK_SENTENCE } from '../../src/domain/address-book.js';
import { type Api, startApi, transfer } from '../api/support.js';
import { cli } from '../cli/support.js';
import { addresses, batchClick, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { APPROVALS, blocksText, envFor, eventually, GENERAL, PEOPLE } from '../support/harness.js';
import {
  click,
  currentCard,
  ephemeralText,
  postRequest,
  quiescent,
  serviceCalls,
  submitRequest,
  threadOf,
  waitForState,
} from '../support/requests.js';
import { loadScreeningList } from '../support/screening.js';
import { useHarness } from '../support/use-harness.js';

const COOLDOWN_S = 6;
const h = useHarness('address-book', {
  DESTINATIONS: 'book',
  ADDRESS_COOLDOWN: `${COOLDOWN_S}s`,
  API_RATE: 'off',
  // A limit far above these payments, so the velocity ledger records them (given back on a cancel).
  VELOCITY_LIMITS: 'ops:USDC=1000000/24h',
});
let env: Record<string, string>;
let api: Api;
let dir = '';
beforeAll(async () => {
  env = envFor(h.prefix, h.sandbox, h.fake, { DESTINATIONS: 'book', ADDRESS_COOLDOWN: `${COOLDOWN_S}s` });
  api = await startApi(h);
  dir = await mkdtemp(join(tmpdir(), 'rampart-book-'));
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const book = () => h.rampart.deps.store.book;
const paidTo = (address: string) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { receiver?: string }).receiver === address);

/**
 * `rampart addresses add name` by `as` (in harness `at`, its CLI settings `atEnv`), which must
 * succeed: the addition's request id, the CLI's answer and the card once posted.
 */
async function proposeEntry(name: string, address: string, as: string = PEOPLE.requester, at = h, atEnv = env) {
  const r = await cli(['addresses', 'add', name, 'base', address, '--as', as], atEnv);
  expect(r.code).toBe(0);
  const id = /R-\d+/.exec(r.stdout)?.[0] ?? '';
  const card = await eventually(
    () => at.fake.messages(APPROVALS).find((m) => blocksText(m).includes(id)),
    10_000,
    `${id}'s card`,
  );
  return { id, r, card };
}

/** `rampart addresses add` as the requester, then its card approved by `approvers`; returns the entry. */
async function addEntry(name: string, address: string, approvers: readonly string[] = [PEOPLE.approver1]) {
  const { id, r } = await proposeEntry(name, address);
  expect(r.stderr).toBe('');
  for (const a of approvers) await click(h, a, id, 'request_approve');
  await waitForState(h, id, 'succeeded');
  const standing = await book().standing(`evm:${address.toLowerCase()}`);
  if (standing.kind !== 'entry') throw new Error(`${address} is not in the book`);
  return { requestId: id, entry: standing.entry };
}

const usable = (usableAt: number) =>
  eventually(() => (Date.now() > usableAt + 50 ? true : undefined), (COOLDOWN_S + 5) * 1000, 'the cooling-off to end');

describe('adding an entry', () => {
  it('is an approval the adder cannot vote on; approved, the entry cools off and the thread says until when', async () => {
    const address = addresses(1, 41)[0] ?? '';
    // An approver adds it: their own vote still never counts for their own entry.
    const { id, card } = await proposeEntry('Acme payroll wallet', address, PEOPLE.approver2);
    expect(blocksText(card)).toContain('Acme payroll wallet');
    // The adder is the entry's requester: their own vote is refused by the vote script.
    await click(h, PEOPLE.approver2, id, 'request_approve');
    expect((await h.rampart.deps.store.get(id))?.votes).toEqual([]);
    await eventually(
      () =>
        ephemeralText(h, PEOPLE.approver2).includes(`You requested ${id}, so you cannot approve it`) ? true : undefined,
      10_000,
      'the refusal',
    );
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    const standing = await book().standing(`evm:${address}`);
    expect(standing).toMatchObject({
      kind: 'entry',
      entry: { name: 'Acme payroll wallet', addedBy: PEOPLE.approver2, approvedBy: PEOPLE.approver1 },
    });
    if (standing.kind !== 'entry') return;
    expect(standing.entry.usableAt - standing.entry.approvedAt).toBe(COOLDOWN_S * 1000);
    const thread = await eventually(
      () => {
        const text = h.fake.thread(APPROVALS, card.ts).map(blocksText).join('\n');
        return text.includes('becomes usable') ? text : undefined;
      },
      10_000,
      'the cooling notice',
    );
    expect(thread).toContain('Remove it if you did not expect this.');
    // Each approver, privately, gets the same notice (the adder included: they may not have added it).
    for (const approver of [PEOPLE.approver1, PEOPLE.approver2])
      await eventually(
        () =>
          h.fake
            .messages(approver)
            .find((m) => m.text.includes('Acme payroll wallet') && m.text.includes('becomes usable')),
        10_000,
        `${approver}'s cooling notice`,
      );
    const listed = await cli(['addresses', 'list'], env);
    expect(listed.stdout).toContain('DESTINATIONS=book');
    expect(listed.stdout).toContain(address);
    const doctor = await cli(['doctor'], env);
    expect(doctor.stdout + doctor.stderr).toContain(
      'DESTINATIONS=book: only address-book entries and own wallets are paid',
    );
  });
});

describe('/addresses in Slack', () => {
  it('adds an entry through the form (one card for the approvers) and lists it', async () => {
    const address = addresses(1, 47)[0] ?? '';
    const user = PEOPLE.requester;
    const seen = new Set(h.fake.views(user).map((v) => v.id));
    await h.driver.command(user, '/addresses', 'add');
    const view = await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, 'the form');
    const before = h.fake.messages(APPROVALS).length;
    const typed = { name: 'Slack supplier wallet', chain: 'base', address, reason: 'new supplier' };
    const r = await h.driver.submitView(user, view, typed);
    expect(JSON.stringify(r.body)).toContain('waiting for approval');
    const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'the entry card');
    const id = /R-\d+/.exec(blocksText(card))?.[0] ?? '';
    expect(blocksText(card)).toContain('Slack supplier');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    // The same address again: refused on the address field (the entry's name says "wallet").
    const seenAgain = new Set(h.fake.views(user).map((v) => v.id));
    await h.driver.command(user, '/addresses', 'add');
    const again = await eventually(() => h.fake.views(user).find((v) => !seenAgain.has(v.id)), 10_000, 'the form');
    const refused = await h.driver.submitView(user, again, { ...typed, reason: 'once more' });
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: {
        address: `${address} on base is already in the address book as "Slack supplier wallet"; remove it first to change it.`,
      },
    });
    const listed = await h.driver.command(user, '/addresses', '');
    expect(listed.status).toBe(200);
    await eventually(
      () => (JSON.stringify(h.fake.calls.slice(-20)).includes('Slack supplier') ? true : undefined),
      10_000,
      'the list',
    );
  });
});

describe('entries are screened like payments', () => {
  const LISTED_AS = /is on the OFAC SDN list of 2026-11-27, so Rampart will not pay it/;

  it('refuses a listed address at add from the CLI, the Slack form and an import, with the screening sentence', async () => {
    const [listed, clean] = addresses(2, 57);
    await loadScreeningList(h, '2026-11-27', [listed ?? '']);
    try {
      const viaCli = await cli(['addresses', 'add', 'Listed', 'base', listed ?? '', '--as', PEOPLE.requester], env);
      expect(viaCli.code).not.toBe(0);
      expect(viaCli.stderr + viaCli.stdout).toMatch(LISTED_AS);

      const user = PEOPLE.requester;
      const seen = new Set(h.fake.views(user).map((v) => v.id));
      await h.driver.command(user, '/addresses', 'add');
      const view = await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, 'the form');
      const form = await h.driver.submitView(user, view, {
        name: 'Listed',
        chain: 'base',
        address: listed ?? '',
        reason: 'a test',
      });
      const errors = (form.body as { errors?: Record<string, string> }).errors ?? {};
      expect(errors.address).toMatch(LISTED_AS);

      const path = join(dir, 'listed.csv');
      await writeFile(path, `name,chain,address\nClean,base,${clean}\nListed,base,${listed}\n`, 'utf8');
      const imported = await cli(['addresses', 'import', path, '--as', PEOPLE.requester], env);
      expect(imported.code).not.toBe(0);
      expect(imported.stderr + imported.stdout).toMatch(LISTED_AS);
      // Nothing of the import was submitted: the clean row waits for the file to be fixed.
      expect(await book().standing(`evm:${clean}`)).toMatchObject({ kind: 'none' });
    } finally {
      await loadScreeningList(h, '2026-11-27', []);
    }
  });

  it('adds nothing when the address is listed while its card waits: approving it ends failed, with the sentence', async () => {
    const [address] = addresses(1, 58);
    const { id } = await proposeEntry('Listed later', address ?? '');
    await loadScreeningList(h, '2026-11-27', [address ?? '']);
    try {
      await click(h, PEOPLE.approver1, id, 'request_approve');
      await waitForState(h, id, 'failed');
      await quiescent(h);
      expect(blocksText(currentCard(h, id))).toMatch(LISTED_AS);
      expect((await book().standing(`evm:${address}`)).kind).not.toBe('entry');
    } finally {
      await loadScreeningList(h, '2026-11-27', []);
    }
  });
});

describe('DESTINATIONS=book', () => {
  const outside = addresses(1, 42)[0] ?? '';

  it('refuses an address outside the book from the Slack form, the API and a batch row, with the same sentence', async () => {
    const slack = await submitRequest(h, 'transfer', `5 base:usdc to ${outside} from ops for rent`);
    expect(JSON.stringify(slack.body)).toContain(JSON.stringify(NOT_IN_BOOK_SENTENCE).slice(1, -1));

    const { newKey } = await import('../api/support.js');
    const { token } = await newKey(api, { limits: { allowNewDestinations: true } });
    const byApi = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'book-1',
      body: transfer({ receiver: outside }),
    });
    expect(byApi.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(byApi.json)).toContain(NOT_IN_BOOK_SENTENCE.slice(0, 60));

    const byBatch = await api.call('POST', '/batches', {
      token,
      idempotencyKey: 'book-2',
      body: {
        kind: 'transfers',
        wallet: 'ops',
        asset: 'base:usdc',
        reason: 'rent',
        rows: [{ receiver: outside, amount: '1' }],
      },
    });
    expect(byBatch.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(byBatch.json)).toContain(NOT_IN_BOOK_SENTENCE.slice(0, 60));
    await quiescent(h);
    expect(paidTo(outside)).toHaveLength(0);
  });
});

describe('cooling off', () => {
  it('makes an approved payment to a cooling entry wait until the cooling-off ends, then run once', async () => {
    const address = addresses(1, 43)[0] ?? '';
    const { entry, requestId } = await addEntry('Cooling supplier', address);
    const { id } = await postRequest(h, 'transfer', `7 base:usdc to ${address} from ops for rent`);
    const sealed = await h.rampart.deps.store.get(id);
    expect(sealed?.executions[0]?.entryId).toBe(entry.id);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    // While it waits, its card says so in the book's word (never "held", the freeze's), and the
    // entry's cooling-notice thread lists it.
    const waiting = await eventually(
      () => {
        const text = blocksText(currentCard(h, id));
        return text.includes('Waiting: *Cooling supplier* usable from') ? text : undefined;
      },
      10_000,
      'the waiting card',
    );
    expect(waiting).not.toMatch(/held/i);
    await eventually(
      () => (threadOf(h, requestId).some((m) => m.text.includes(`${id} waits for this entry`)) ? true : undefined),
      10_000,
      'the waiting payment listed in the cooling-notice thread',
    );
    const done = await waitForState(h, id, 'succeeded', (COOLDOWN_S + 10) * 1000);
    expect(paidTo(address)).toHaveLength(1);
    const history = await h.rampart.deps.store.history(id);
    const started = history.find((e) => e.event === 'executing')?.at ?? 0;
    // Started by the worker only once Redis's clock passed usableAt (the app clock is the same host's).
    expect(started).toBeGreaterThanOrEqual(entry.usableAt - 5);
    expect(done.state).toBe('succeeded');
    await quiescent(h);
    expect(paidTo(address)).toHaveLength(1);
  });
});

describe('removal', () => {
  /** A fresh entry (still cooling) and an approved transfer to it, waiting for the cooling-off. */
  async function waitingPayment(name: string, salt: number, amount: number) {
    const address = addresses(1, salt)[0] ?? '';
    const { entry } = await addEntry(name, address);
    const { id } = await postRequest(h, 'transfer', `${amount} base:usdc to ${address} from ops for rent`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'approved');
    return { address, entry, id };
  }

  it('cancels an approved payment waiting for the cooling-off; adding the address again does not release it', async () => {
    const { address, entry, id } = await waitingPayment('Removed supplier', 44, 9);
    const ledger = `${h.prefix}:velocity:wal_ops_7f3a:USDC`;
    expect(await h.rampart.redis.zscore(ledger, id)).not.toBeNull();
    const removed = await cli(['addresses', 'remove', entry.id, '--as', PEOPLE.approver2], env);
    expect(removed.code).toBe(0);
    // Added again at once: a new entry, a new id, cooling again.
    const again = await addEntry('Removed supplier again', address);
    expect(again.entry.id).not.toBe(entry.id);
    const r = await waitForState(h, id, 'cancelled', (COOLDOWN_S + 10) * 1000);
    expect(JSON.stringify(r.executions[0]?.outcome)).toContain('address-book entry removed');
    // Its velocity reservation was given back in the same script as the cancel.
    expect(await h.rampart.redis.zscore(ledger, id)).toBeNull();
    await usable(again.entry.usableAt);
    await quiescent(h);
    expect(paidTo(address)).toHaveLength(0);
  });

  it('removes an entry from /addresses in Slack: an outsider is refused, an approver removes it and its waiting payment is cancelled', async () => {
    const { address, entry, id } = await waitingPayment('Slack removed supplier', 48, 8);
    /** `user` types /addresses and gets the list, with this entry's Remove button. */
    const listFor = async (user: string) => {
      const before = h.fake.ephemerals(user).length;
      await h.driver.command(user, '/addresses', '', GENERAL);
      return eventually(
        () =>
          h.fake
            .ephemerals(user)
            .slice(before)
            .find((m) => findElement(m.blocks ?? [], `addresses_remove_${entry.id}`)),
        10_000,
        `${user}'s address list`,
      );
    };
    const removeClick = async (user: string) =>
      h.driver.click(user, {
        action_id: `addresses_remove_${entry.id}`,
        message: await listFor(user),
        channel: GENERAL,
      });

    const outsiderList = await listFor(PEOPLE.outsider);
    // The confirmation counts the waiting payment it would stop.
    expect(JSON.stringify(outsiderList.blocks)).toContain('stops 1 payment not yet sent');
    await removeClick(PEOPLE.outsider);
    await eventually(
      () =>
        ephemeralText(h, PEOPLE.outsider).includes('Only approvers remove address-book entries') ? true : undefined,
      10_000,
      "the outsider's refusal",
    );
    expect(await book().standing(entry.key)).toMatchObject({ kind: 'entry', entry: { id: entry.id } });

    await removeClick(PEOPLE.approver2);
    await eventually(
      () =>
        h.fake.messages(APPROVALS).find((m) => m.text.includes(`<@${PEOPLE.approver2}> removed Slack removed supplier`))
          ? true
          : undefined,
      10_000,
      'the removal notice',
    );
    expect(await book().standing(entry.key)).toMatchObject({ kind: 'removed', entry: { removedBy: PEOPLE.approver2 } });
    // The list the approver clicked on is redrawn in place: the entry shows removed, without its button.
    const redrawn = h.fake
      .ephemerals(PEOPLE.approver2)
      .find((m) => blocksText(m).includes(`removed by <@${PEOPLE.approver2}>`));
    expect(redrawn).toBeDefined();
    expect(findElement(redrawn?.blocks ?? [], `addresses_remove_${entry.id}`)).toBeUndefined();
    const r = await waitForState(h, id, 'cancelled', (COOLDOWN_S + 10) * 1000);
    expect(JSON.stringify(r.executions[0]?.outcome)).toContain('address-book entry removed');
    await quiescent(h);
    expect(paidTo(address)).toHaveLength(0);
  });

  it('refuses the remover when they are not an approver', async () => {
    const r = await cli(['addresses', 'remove', 'A-1', '--as', PEOPLE.outsider], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('not an approver');
  });

  it('never sends batch row 5 once its entry is removed; the batch pauses on it and a re-add does not release it', async () => {
    const receivers = addresses(6, 45);
    const csv = `name,chain,address\n${receivers.map((a, i) => `Vendor ${i + 1},base,${a}`).join('\n')}\n`;
    const path = join(dir, 'vendors.csv');
    await writeFile(path, csv, 'utf8');
    const imported = await cli(['addresses', 'import', path, '--as', PEOPLE.requester], env);
    expect(imported.code).toBe(0);
    const importId = /R-\d+/.exec(imported.stdout)?.[0] ?? '';
    await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(importId)), 10_000, 'card');
    await click(h, PEOPLE.approver1, importId, 'request_approve');
    await waitForState(h, importId, 'succeeded');
    const fifth = await book().standing(`evm:${receivers[4]}`);
    if (fifth.kind !== 'entry') throw new Error('row 5 is not in the book');
    await usable(fifth.entry.usableAt);

    const batch = await submitBatchFile(h, transfersCsv(receivers, [1, 1, 1, 1, 1, 1]));
    expect((await cli(['addresses', 'remove', fifth.entry.id, '--as', PEOPLE.approver2], env)).code).toBe(0);
    await click(h, PEOPLE.approver1, batch, 'request_approve');
    await waitForApproval(h, batch, 'paused');
    const record = await h.rampart.deps.store.get(batch);
    expect(record?.executions.map((e) => e.state).slice(0, 6)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'cancelled',
      'queued',
    ]);
    // Added again (a new entry) and cooled: row 5 stays cancelled; resuming runs row 6 only.
    // Row 5's own units were given back with its cancel (the batch's given-back set holds it).
    expect(await h.rampart.redis.sismember(`${h.prefix}:batch:${batch}:given`, `${batch}.5`)).toBe(1);
    const again = await addEntry('Vendor 5 again', receivers[4] ?? '');
    await usable(again.entry.usableAt);
    await batchClick(h, PEOPLE.approver1, batch, 'batch_resume');
    await waitForApproval(h, batch, 'done');
    await quiescent(h);
    expect(paidTo(receivers[4] ?? '')).toHaveLength(0);
    expect(paidTo(receivers[5] ?? '')).toHaveLength(1);
  });
});

describe('lookalikes (DESTINATIONS=open)', () => {
  const open = useHarness('address-book-lookalike', { API_RATE: 'off' });
  // Same first 6 and last 4 characters as PAID, different in the middle: the poisoning pattern.
  const PAID = '0x99ed2e97162533ba814af8092b93b9a3090dedcf';
  const ALIKE = `${PAID.slice(0, 6)}${'0'.repeat(32)}${PAID.slice(-4)}`;
  const approveOf = (blocks: unknown[] | undefined) => findElement(blocks ?? [], 'request_approve')?.element;

  beforeAll(async () => {
    await open.rampart.deps.store.addPayee('base', PAID);
  });

  it('flags a lookalike of an address paid before on the card, with both full addresses, and asks the confirmation', async () => {
    expect(ALIKE.slice(0, 6)).toBe(PAID.slice(0, 6));
    expect(ALIKE.slice(-4)).toBe(PAID.slice(-4));
    // The address paid before itself is no lookalike (asked first: once ALIKE is requested, PAID
    // looks like a destination of the last 90 days too).
    const same = await postRequest(open, 'transfer', `5 base:usdc to ${PAID} from ops for rent`);
    expect(blocksText(same.card)).not.toContain('Lookalike');
    const { card } = await postRequest(open, 'transfer', `5 base:usdc to ${ALIKE} from ops for rent`);
    const text = blocksText(card);
    expect(text).toContain('*Lookalike:*');
    const compact = text.replace(/[\s`]/g, '').toLowerCase();
    expect(compact).toContain(PAID.toLowerCase());
    expect(compact).toContain(ALIKE.toLowerCase());
    const approve = approveOf(card.blocks) as { value?: string; confirm?: { text?: { text?: string } } } | undefined;
    expect(approve?.value).toContain('warnings-checked');
    expect(approve?.confirm?.text?.text).toContain('lookalike of paid before 0x99ed…edcf');
  });

  it('flags an entry that looks like an address paid before on its addition card, and asks the confirmation', async () => {
    const poisoned = `${PAID.slice(0, 6)}${'1'.repeat(32)}${PAID.slice(-4)}`;
    const openEnv = envFor(open.prefix, open.sandbox, open.fake, {});
    const { id, card } = await proposeEntry('Payroll (new)', poisoned, PEOPLE.requester, open, openEnv);
    const text = blocksText(card);
    expect(text).toContain('*Lookalike:* entry 1 looks like paid before 0x99ed…edcf');
    const compact = text.replace(/[\s`]/g, '').toLowerCase();
    expect(compact).toContain(PAID.toLowerCase());
    expect(compact).toContain(poisoned.toLowerCase());
    const approve = approveOf(card?.blocks) as { value?: string; confirm?: { text?: { text?: string } } } | undefined;
    expect(approve?.value).toBe(`${id} warnings-checked`);
    expect(approve?.confirm?.text?.text).toContain('I checked entry 1: lookalike of paid before 0x99ed…edcf.');
  });

  it('flags a lookalike row of a batch and asks the confirmation naming the row', async () => {
    const rows = [addresses(1, 46)[0] ?? '', ALIKE];
    const id = await submitBatchFile(open, transfersCsv(rows, [1, 1]));
    const card = open.fake.messages(APPROVALS).find((m) => blocksText(m).includes(id));
    expect(blocksText(card)).toContain('*Lookalike:* row 3');
    const approve = approveOf(card?.blocks) as { value?: string; confirm?: { text?: { text?: string } } } | undefined;
    expect(approve?.value).toContain('warnings-checked');
    expect(approve?.confirm?.text?.text).toContain('row 3: lookalike of paid before');
  });
});

describe('lookalikes of the destinations of the last 90 days', () => {
  /** The app's clock runs `ahead` ms ahead of real time: days pass between two requests. */
  let ahead = 0;
  const DAY = 86_400_000;
  const recent = useHarness(
    'address-book-recent',
    { API_RATE: 'off' },
    { rampart: { infra: { clock: () => Date.now() + ahead } } },
  );
  afterAll(() => {
    ahead = 0;
  });
  // Two requested-never-paid addresses, each with its poisoned twin (same first 6 and last 4).
  const twin = (a: string) => `${a.slice(0, 6)}${'0'.repeat(32)}${a.slice(-4)}`;
  const [TEN, HUNDRED] = addresses(2, 52);
  const approveText = (blocks: unknown[] | undefined) =>
    (findElement(blocks ?? [], 'request_approve')?.element as { confirm?: { text?: { text?: string } } } | undefined)
      ?.confirm?.text?.text ?? '';

  it('flags a lookalike of an address requested (not paid) 10 days before, and not one requested 100 days before', async () => {
    await postRequest(recent, 'transfer', `5 base:usdc to ${TEN} from ops for rent`);
    await postRequest(recent, 'transfer', `5 base:usdc to ${HUNDRED} from ops for rent`);
    expect(await recent.rampart.deps.store.knownPayee('base', TEN ?? '')).toBe(false);

    ahead = 10 * DAY;
    const ten = await postRequest(recent, 'transfer', `5 base:usdc to ${twin(TEN ?? '')} from ops for rent`);
    expect(blocksText(ten.card)).toContain('*Lookalike:*');
    expect(approveText(ten.card.blocks)).toContain(`lookalike of requested `);
    expect(approveText(ten.card.blocks).toLowerCase()).toContain(`${TEN?.slice(0, 6)}…${TEN?.slice(-4)}`.toLowerCase());

    ahead = 100 * DAY;
    const hundred = await postRequest(recent, 'transfer', `5 base:usdc to ${twin(HUNDRED ?? '')} from ops for rent`);
    expect(blocksText(hundred.card)).not.toContain('Lookalike');
    expect(approveText(hundred.card.blocks)).not.toContain('lookalike');
  });

  it('flags a batch row that looks like an address requested 10 days before', async () => {
    ahead = 0;
    const [base] = addresses(1, 55);
    await postRequest(recent, 'transfer', `5 base:usdc to ${base} from ops for rent`);
    ahead = 10 * DAY;
    const id = await submitBatchFile(recent, transfersCsv([addresses(1, 56)[0] ?? '', twin(base ?? '')], [1, 1]));
    const card = recent.fake.messages(APPROVALS).find((m) => blocksText(m).includes(id));
    expect(blocksText(card)).toContain('*Lookalike:* row 3');
    expect(approveText(card?.blocks)).toContain('row 3: lookalike of requested');
  });
});

describe('DESTINATIONS=warn', () => {
  const warn = useHarness('address-book-warn', {
    DESTINATIONS: 'warn',
    STEP_UP_NEW_DESTINATION: 'on',
    PUBLIC_URL: 'http://localhost:3999',
  });

  it('says first on the card that an address outside the book is a new destination, and asks a passkey for it', async () => {
    // Paid before, so only the book makes it new.
    const outside = addresses(1, 48)[0] ?? '';
    await warn.rampart.deps.store.addPayee('base', outside);
    const { id, card } = await postRequest(warn, 'transfer', `5 base:usdc to ${outside} from ops for rent`);
    const text = blocksText(card);
    expect(text).toContain('*Not in the address book*');
    // Before the amount line: the first thing the approver reads about the payment.
    expect(text.indexOf('Not in the address book')).toBeLessThan(text.indexOf('*Amount:*'));
    expect((await warn.rampart.deps.store.get(id))?.sealed.stepUp).toBe(true);
  });
});
