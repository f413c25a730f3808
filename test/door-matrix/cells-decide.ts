/**
 * The decision half's drivers: a pending request (or batch) made at a submission door, one setup
 * that breaks exactly one rule, then the decision door driven as a person or a client would.
 */

import { expect } from 'vitest';
import type { RuleId } from '../../src/domain/rules/index.js';
import { newKey } from '../api/support.js';
import { cli } from '../cli/support.js';
import { APPROVALS, eventually, type Harness, PEOPLE, REDIS_URL } from '../support/harness.js';
import { unfreezeCard } from '../support/requests.js';
import { BOOK_DECIDE, pendingEntry } from './cells-book.js';
import { CONFIRM_NOT_PAID as NOT_PAID } from './cells-outcome.js';
import { PAGE } from './cells-page.js';
import { resumeWithoutPasskey } from './cells-resume.js';
import { SERIES_DRIVERS } from './cells-series.js';
import { type Driver, frozenWhile } from './cells-submit.js';
import { TIME_DRIVERS } from './cells-time.js';
import { apiCode, cliCode, codeOfText, nextEphemeral } from './readers.js';
import type { DecisionDoor } from './table.js';
import type { World } from './world.js';
import { AMOUNT, cards, clickCard, newestCardId, viaApiTransfer, viaBatchFile, viaPrefill } from './world.js';

/** A pending request by `user` through the prefill door; its id. */
async function pending(h: Harness, user: string, amount: number = AMOUNT.small, wallet = 'ops', asset = 'base:usdc') {
  const before = cards(h);
  const code = await viaPrefill(h, user, wallet, asset, amount);
  if (code !== 'accepted') throw new Error(`the setup's request was refused: ${code}`);
  return newestCardId(h, before);
}

async function pendingBatch(h: Harness, user: string) {
  const before = cards(h);
  const code = await viaBatchFile(h, user, {});
  if (code !== 'accepted') throw new Error(`the setup's batch was refused: ${code}`);
  return newestCardId(h, before);
}

/** Ends `id` as `to` the way another person would have a moment before. */
const decided = (h: Harness, id: string, to: 'denied' | 'cancelled') =>
  h.rampart.deps.store.decide(id, to, { event: to, by: PEOPLE.approver2 });

/** Approve that counted but did not decide: the request stays pending below its quorum. */
async function approveCounted(h: Harness, user: string, id: string): Promise<string> {
  await h.driver.click(user, {
    action_id: 'request_approve',
    block_id: 'matrix',
    message: card(h),
    channel: APPROVALS,
    value: id,
  });
  const r = await eventually(async () => {
    const record = await h.rampart.deps.store.get(id);
    return record && record.votes.length > 0 ? record : undefined;
  });
  return r.state === 'pending' ? 'quorum_not_reached' : `accepted (${r.state})`;
}

/** Any message to click on: the handlers read the id from the button's value. */
const card = (h: Harness) => {
  const m = h.fake.messages(APPROVALS).at(-1);
  if (!m) throw new Error('no message in the approvals channel');
  return m;
};

async function slashAnswer(h: Harness, user: string, command: string, text: string): Promise<string> {
  const before = h.fake.ephemerals(user).length;
  const ack = await h.driver.command(user, command, text);
  const acked = (ack.body as { text?: string } | undefined)?.text;
  return acked ? codeOfText(acked) : nextEphemeral(h, user, before);
}

const cliResolve = (h: Harness, id: string, user: string) =>
  cli(['resolve', `${id}.1`, 'paid', '0xmatrix', '--as', user], {
    NODE_ENV: 'test',
    REDIS_URL,
    REDIS_PREFIX: h.prefix,
    APPROVERS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
  }).then(cliCode);

const A1 = PEOPLE.approver1;
const A2 = PEOPLE.approver2;

/**
 * The same approver chooses release twice on one unfreeze card: the second choice is answered as
 * the first (another approver must choose the same) and the freeze stays.
 */
async function unfreezeTwice(w: World): Promise<string> {
  const h = w.main;
  return frozenWhile(w, async () => {
    await h.driver.command(A1, '/unfreeze', '', APPROVALS);
    const card = await eventually(() => unfreezeCard(h), 10_000, 'the unfreeze card');
    const choose = async () => {
      const before = h.fake.ephemerals(A1).length;
      await h.driver.click(A1, { action_id: 'unfreeze_release', message: card, channel: APPROVALS });
      return nextEphemeral(h, A1, before);
    };
    expect(await choose()).toBe('duplicate_vote');
    const second = await choose();
    expect(await h.rampart.deps.controls.freeze()).toBeDefined();
    return second;
  });
}

export const DECIDE_DRIVERS: Partial<Record<RuleId, Partial<Record<DecisionDoor, Driver>>>> = {
  policy: {
    'address-approve': async (w) => approveCounted(w.main, A1, await pendingEntry(w)),
    'passkey-page': PAGE.policy,
    'approve-button': async (w) =>
      approveCounted(w.main, A1, await pending(w.main, PEOPLE.requester, AMOUNT.twoApprovals)),
  },
  self_approval: {
    'passkey-page': PAGE.self,
    'approve-button': async (w) => clickCard(w.main, A2, await pending(w.main, A2), 'request_approve'),
    resume: async (w) => clickCard(w.main, A2, await pendingBatch(w.main, A2), 'batch_resume'),
    'record-outcome': async (w) => slashAnswer(w.main, A2, '/resolve', `${await pending(w.main, A2)}.1 paid 0xmatrix`),
    'record-outcome-cli': async (w) => cliResolve(w.main, await pending(w.main, A2), A2),
    'confirm-not-paid': NOT_PAID.byRequester,
    'passkey-enrol-approval': (w) => clickCard(w.main, A1, 'any', 'passkey_approve', `${A1}/matrix-credential`),
    ...BOOK_DECIDE.self_approval,
  },
  duplicate_vote: {
    // An entry needs the top tier's quorum (two under MAIN_ENV's TWO_APPROVALS_ABOVE).
    'address-approve': async (w) => {
      const id = await pendingEntry(w);
      await approveCounted(w.main, A1, id);
      return clickCard(w.main, A1, id, 'request_approve');
    },
    'passkey-page': PAGE.twice,
    'approve-button': async (w) => {
      const id = await pending(w.main, PEOPLE.requester, AMOUNT.twoApprovals);
      await approveCounted(w.main, A1, id);
      return clickCard(w.main, A1, id, 'request_approve');
    },
    'confirm-not-paid': NOT_PAID.byProposer,
    'unfreeze-vote': unfreezeTwice,
  },
  step_up: {
    // Sealed under STEP_UP_ABOVE: any step-up setting makes an entry need a passkey.
    'address-approve': async (w) => clickCard(w.main, A1, await pendingEntry(w, true), 'request_approve'),
    'approve-button': async (w) =>
      clickCard(w.main, A1, await pending(w.main, PEOPLE.requester, AMOUNT.stepUp), 'request_approve'),
    resume: resumeWithoutPasskey,
    'confirm-not-paid': NOT_PAID.withoutPasskey,
  },
  // treasury may send 5,000 USDC a day: two requests of 3,000 each pass alone, not together.
  velocity: {
    'passkey-page': PAGE.velocity,
    'approve-button': async (w) => {
      const first = await pending(w.main, PEOPLE.requester, 3_000, 'treasury', 'ethereum:usdc');
      const second = await pending(w.main, PEOPLE.requester, 3_000, 'treasury', 'ethereum:usdc');
      expect(await approveCounted(w.main, A1, first)).not.toBe('quorum_not_reached');
      return clickCard(w.main, A1, second, 'request_approve');
    },
  },
  key_scopes: {
    'cancel-api': async (w) => {
      const { token } = await newKey(w.api, { scopes: ['requests:read'] });
      return apiCode(await w.api.call('POST', '/requests/R-1/cancel', { token, idempotencyKey: 'matrix-scope' }));
    },
    // The same route: the scope is asked before the request is read, waiting or not.
    'cancel-waiting-api': async (w) => {
      const { token } = await newKey(w.api, { scopes: ['requests:read'] });
      return apiCode(await w.api.call('POST', '/requests/R-2/cancel', { token, idempotencyKey: 'matrix-scope-w' }));
    },
  },
  freeze: {
    'address-approve': async (w) => {
      const id = await pendingEntry(w);
      return frozenWhile(w, () => clickCard(w.main, A1, id, 'request_approve'));
    },
    'passkey-page': PAGE.freeze,
    'approve-button': async (w) => {
      const id = await pending(w.main, PEOPLE.requester);
      return frozenWhile(w, () => clickCard(w.main, A1, id, 'request_approve'));
    },
  },
  approval_state: {
    'address-approve': async (w) => {
      const id = await pendingEntry(w);
      await decided(w.main, id, 'denied');
      return clickCard(w.main, A1, id, 'request_approve');
    },
    'passkey-page': PAGE.decided,
    'approve-button': async (w) => {
      const id = await pending(w.main, PEOPLE.requester);
      await decided(w.main, id, 'denied');
      return clickCard(w.main, A1, id, 'request_approve');
    },
    deny: async (w) => {
      const id = await pending(w.main, PEOPLE.requester);
      await decided(w.main, id, 'cancelled');
      return clickCard(w.main, A1, id, 'request_deny');
    },
    'cancel-card': async (w) => {
      const id = await pending(w.main, PEOPLE.requester);
      await decided(w.main, id, 'denied');
      return clickCard(w.main, PEOPLE.requester, id, 'request_cancel');
    },
    'cancel-api': async (w) => {
      const { token } = await newKey(w.api, { limits: { allowNewDestinations: true } });
      const before = cards(w.main);
      if ((await viaApiTransfer(w.api, {}, token)) !== 'accepted') throw new Error('setup refused');
      const id = await newestCardId(w.main, before);
      await decided(w.main, id, 'denied');
      return apiCode(await w.api.call('POST', `/requests/${id}/cancel`, { token, idempotencyKey: `c-${id}` }));
    },
    resume: async (w) => clickCard(w.main, A1, await pendingBatch(w.main, PEOPLE.requester), 'batch_resume'),
    stop: async (w) => {
      const id = await pendingBatch(w.main, PEOPLE.requester);
      await decided(w.main, id, 'cancelled');
      return clickCard(w.main, PEOPLE.requester, id, 'batch_stop');
    },
    'record-outcome': async (w) =>
      slashAnswer(w.main, A1, '/resolve', `${await pending(w.main, PEOPLE.requester)}.1 paid 0xmatrix`),
    'record-outcome-cli': async (w) => cliResolve(w.main, await pending(w.main, PEOPLE.requester), A1),
    'confirm-not-paid': NOT_PAID.afterPaid,
    // A vote on a proposal that is no longer the current one (a newer /unfreeze replaced it).
    'unfreeze-vote': (w) => frozenWhile(w, () => clickCard(w.main, A1, 'any', 'unfreeze_release', 'stale-proposal')),
    'passkey-enrol-approval': (w) => clickCard(w.main, A1, 'any', 'passkey_approve', `${A2}/matrix-credential`),
  },
  ...TIME_DRIVERS,
  entry_removed: BOOK_DECIDE.entry_removed,
  screening: BOOK_DECIDE.screening,
  lookalike: BOOK_DECIDE.lookalike,
  ...SERIES_DRIVERS,
};
