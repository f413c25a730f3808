/**
 * Request again: a batch paid in part (one row refused by the service, so failed; the rest paid)
 * offers its requester its failed rows as a new batch; the requester's form is checked and, when
 * it passes, submitted. The cell reads the form's problems, its refusal, or the new card's answer.
 */
import { findElement } from '../../devkit/index.js';
import type { Config } from '../../src/config.js';
import { addresses, waitForApproval } from '../support/batches.js';
import { APPROVALS, blocksText, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { threadOf, waitForState } from '../support/requests.js';
import { entry } from './cells-book.js';
import { freshVelocityDay, onPage } from './cells-page.js';
import { codeOfText, modalCode } from './readers.js';
import { listedWhile } from './screening-list.js';
import type { Driver } from './world.js';
import { AMOUNT, cards, clickCard, newestCardId, viaBatchFile, viaPrefill } from './world.js';

const R = PEOPLE.requester;
const A1 = PEOPLE.approver1;

type Source = { wallet?: string; asset?: string; amounts: number[]; receivers?: string[] };

/** A batch by `user` whose first row the service refuses; approved by `approve`, run to its end. */
async function paidInPart(h: Harness, user: string, s: Source, approve: (id: string) => Promise<unknown>) {
  const before = cards(h);
  const code = await viaBatchFile(h, user, { ...s, rows: s.amounts.length, amounts: s.amounts });
  if (code !== 'accepted') throw new Error(`the setup's batch was refused: ${code}`);
  const id = await newestCardId(h, before);
  h.sandbox.faults.failNext('/transfer', 1, { status: 400, body: 'json' });
  await approve(id);
  await waitForApproval(h, id, 'done');
  return id;
}

/** The requester presses Request again under the summary; the checked form's or submission's code. */
async function askAgain(h: Harness, user: string, source: string): Promise<string> {
  const summary = await eventually(
    () => threadOf(h, source).find((m) => findElement(m.blocks ?? [], 'batch_request_again')),
    10_000,
    'the Request again button',
  );
  const opened = h.fake.views(user).length;
  await h.driver.click(user, { action_id: 'batch_request_again', message: summary, channel: APPROVALS });
  const form = await eventually(
    () => {
      const v = h.fake.views(user).slice(opened).at(-1) ?? h.fake.views(user).at(-1);
      const text = v ? blocksText({ blocks: v.blocks }) : '';
      return v && JSON.stringify(v.title).includes('Request again') && !text.includes('Checking…') ? v : undefined;
    },
    10_000,
    'the checked request-again form',
  );
  if (!form.submit) return codeOfText(blocksText({ blocks: form.blocks }));
  const shown = cards(h);
  const answer = modalCode((await h.driver.submitView(user, form, {})).body);
  if (answer !== 'accepted') return answer;
  return eventually(
    () => {
      const text = blocksText({ blocks: h.fake.views(user).at(-1)?.blocks ?? [] });
      const said = codeOfText(text);
      if (!said.startsWith('unread')) return said;
      return /is posted for approval/.test(text) ? 'accepted' : undefined;
    },
    10_000,
    'the request-again form’s answer',
  ).then(async (c) => (c === 'accepted' ? `accepted ${await newestCardId(h, shown)}` : c));
}

/** A1's Approve that lands (no answer to wait for). */
const slackApprove = (h: Harness) => async (id: string) => {
  const message = h.fake.messages(APPROVALS).at(-1);
  if (!message) throw new Error('no message in the approvals channel');
  await h.driver.click(A1, {
    action_id: 'request_approve',
    block_id: 'matrix',
    message,
    channel: APPROVALS,
    value: id,
  });
};

/** Denies `user`'s pending requests as another approver would, so the per-person cap starts empty. */
async function closeOpenOf(h: Harness, user: string): Promise<void> {
  const { store } = h.rampart.deps;
  for (const id of await store.recentIds(200)) {
    const r = await store.get(id);
    if (r?.sealed.requester === user && r.approvalState === 'pending')
      await store.decide(id, 'denied', { event: 'denied', by: PEOPLE.approver2 });
  }
}

/** The address book's settings changed since the source batch was accepted, as a restart would have them. */
async function withMode<T>(h: Harness, mode: 'book' | undefined, work: () => Promise<T>): Promise<T> {
  const config = h.rampart.deps.config as { destinations: Config['destinations'] };
  const was = config.destinations;
  config.destinations = { ...was, mode };
  try {
    return await work();
  } finally {
    config.destinations = was;
  }
}

export const AGAIN_BOOK: Record<'address_book' | 'entry_cooling' | 'entry_removed', Driver> = {
  // The batch was made while DESTINATIONS was open; it is `book` now, and its failed row's
  // address is in no entry.
  address_book: async (w) => {
    const h = w.main;
    const source = await paidInPart(h, R, { amounts: [2, 1], receivers: addresses(2, 910) }, slackApprove(h));
    return withMode(h, 'book', () => askAgain(h, R, source));
  },
  // The failed row's address was added to the book since: a new entry, still cooling off.
  entry_cooling: async (w) => {
    const h = w.main;
    const receivers = addresses(2, 911);
    const source = await paidInPart(h, R, { amounts: [2, 1], receivers }, slackApprove(h));
    await entry(w, 3_600_000, receivers[0]);
    return askAgain(h, R, source);
  },
  // The failed row paid an entry, removed since.
  entry_removed: async (w) => {
    const h = w.main;
    const receivers = addresses(2, 912);
    const { id } = await entry(w, 0, receivers[0]);
    const source = await paidInPart(h, R, { amounts: [2, 1], receivers }, slackApprove(h));
    await h.rampart.deps.store.book.remove(id, PEOPLE.approver2);
    return askAgain(h, R, source);
  },
};

export const AGAIN: Record<'policy' | 'stepUp' | 'velocity' | 'openCaps' | 'screening', Driver> = {
  // The row the service refused pays an address listed since: asked again, the form refuses it.
  screening: async (w) => {
    const h = w.main;
    const receivers = addresses(2, 900);
    const source = await paidInPart(h, R, { amounts: [2, 1], receivers }, slackApprove(h));
    return listedWhile(h, [receivers[0] ?? ''], () => askAgain(h, R, source));
  },
  // TWO_APPROVALS_ABOVE changed since the batch was accepted (as a restart with new settings
  // would have it): it names no USDC threshold now, so the policy cannot judge the rows asked again.
  policy: async (w) => {
    const h = w.main;
    const source = await paidInPart(h, R, { amounts: [2, 1] }, slackApprove(h));
    const config = h.rampart.deps.config as { policy: Config['policy'] };
    const was = config.policy;
    config.policy = { ...was, twoApprovalsAbove: { USDT: '10000' } };
    try {
      return await askAgain(h, R, source);
    } finally {
      config.policy = was;
    }
  },
  // The refused row alone is above STEP_UP_ABOVE: the new batch's Approve from Slack is not enough.
  stepUp: async (w) => {
    const h = w.main;
    const source = await paidInPart(h, R, { amounts: [AMOUNT.stepUp - 4_000, 1] }, async (id) => {
      await onPage(h, A1, id);
      await onPage(h, PEOPLE.approver2, id);
    });
    const again = await askAgain(h, R, source);
    if (!again.startsWith('accepted ')) return again;
    return clickCard(h, A1, again.slice('accepted '.length), 'request_approve');
  },
  // treasury may send 5,000 USDC a day: 1,000 paid, 1,500 paid since, the refused 3,000 is over.
  velocity: async (w) => {
    const h = w.main;
    await freshVelocityDay(h);
    const t = { wallet: 'treasury', asset: 'ethereum:usdc' };
    const source = await paidInPart(h, R, { ...t, amounts: [3_000, 1_000] }, slackApprove(h));
    const before = cards(h);
    if ((await viaPrefill(h, R, 'treasury', 'ethereum:usdc', 1_500)) !== 'accepted') return 'filler refused';
    const filler = await newestCardId(h, before);
    await slackApprove(h)(filler);
    await waitForState(h, filler, 'succeeded');
    try {
      return await askAgain(h, R, source);
    } finally {
      await freshVelocityDay(h);
    }
  },
  // One open request per person: the requester already has one when they ask again.
  openCaps: async (w) => {
    const h = w.caps;
    const user = PEOPLE.groupMember;
    await closeOpenOf(h, user);
    try {
      const source = await paidInPart(h, user, { amounts: [2, 1] }, (id) => onPage(h, A1, id));
      if ((await viaPrefill(h, user, 'ops', 'base:usdc', AMOUNT.small)) !== 'accepted') return 'the open one refused';
      return await askAgain(h, user, source);
    } finally {
      await closeOpenOf(h, user);
    }
  },
};
