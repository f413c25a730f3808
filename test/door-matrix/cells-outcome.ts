/**
 * The not-paid confirmation door: a payment the service answered 500 for is outcome unknown; one
 * approver proposes not-paid with `/resolve`, and the Confirm not paid button on its card is
 * clicked by the person whose rule the cell breaks.
 */
import { APPROVALS, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { waitForState } from '../support/requests.js';
import { nextEphemeral } from './readers.js';
import type { Driver } from './world.js';
import { AMOUNT, cards, newestCardId, viaPrefill } from './world.js';

const A1 = PEOPLE.approver1;
const A2 = PEOPLE.approver2;
/** A third approver (through the treasury user group), for a confirmer who is neither of the others. */
const A3 = PEOPLE.groupMember;
const CONFIRM = 'outcome_confirm';

/** Requested by `requester`, approved by A1, left outcome unknown by a 500; its execution id. */
async function unknownExecution(h: Harness, requester: string): Promise<string> {
  const before = cards(h);
  const code = await viaPrefill(h, requester, 'ops', 'base:usdc', AMOUNT.small);
  if (code !== 'accepted') throw new Error(`the setup's request was refused: ${code}`);
  const id = await newestCardId(h, before);
  h.sandbox.faults.failNext('/transfer', 1, { status: 500, body: 'json' });
  await h.driver.click(A1, {
    action_id: 'request_approve',
    block_id: 'matrix',
    message: anyCard(h),
    channel: APPROVALS,
    value: id,
  });
  await waitForState(h, id, 'unknown');
  return `${id}.1`;
}

const anyCard = (h: Harness) => {
  const m = h.fake.messages(APPROVALS).at(-1);
  if (!m) throw new Error('no message in the approvals channel');
  return m;
};

/** `by` proposes not-paid through /resolve; the proposal's id, as the card's button carries it. */
async function proposed(h: Harness, execId: string, by: string): Promise<string> {
  await h.driver.command(by, '/resolve', `${execId} not-paid no debit seen on ops`);
  const execution = await eventually(
    async () => (await h.rampart.deps.store.executions.get(execId))?.proposal,
    10_000,
    'the not-paid proposal',
  );
  return execution.id;
}

/** `user` clicks Confirm not paid for the proposal they saw; their private answer's code. */
async function confirm(h: Harness, user: string, execId: string, proposal: string): Promise<string> {
  const before = h.fake.ephemerals(user).length;
  await h.driver.click(user, {
    action_id: CONFIRM,
    block_id: 'matrix',
    message: anyCard(h),
    channel: APPROVALS,
    value: `${execId} ${proposal}`,
  });
  return nextEphemeral(h, user, before);
}

/** The requester (an approver too) confirms a not-paid on their own payment. */
const byRequester: Driver = async (w) => {
  const execId = await unknownExecution(w.main, A2);
  return confirm(w.main, A2, execId, await proposed(w.main, execId, A1));
};

/** The proposer confirms their own proposal: not-paid takes two different people. */
const byProposer: Driver = async (w) => {
  const execId = await unknownExecution(w.main, PEOPLE.requester);
  return confirm(w.main, A1, execId, await proposed(w.main, execId, A1));
};

/**
 * An approval made with passkeys (its stored `stepUp`, as the VOTE script stores it): a click is
 * not enough. Set on the stored approval so the cell needs no enrolled passkeys to reach it.
 */
const withoutPasskey: Driver = async (w) => {
  const h = w.main;
  const execId = await unknownExecution(h, PEOPLE.requester);
  const key = h.rampart.deps.store.keys.approval(execId.replace(/\.\d+$/, ''));
  const sealed = JSON.parse((await h.rampart.redis.hget(key, 'frozen')) ?? '{}') as Record<string, unknown>;
  await h.rampart.redis.hset(key, 'frozen', JSON.stringify({ ...sealed, stepUp: true }));
  return confirm(h, A2, execId, await proposed(h, execId, A1));
};

/** Another approver recorded it paid after the proposal: the confirmation comes too late. */
const afterPaid: Driver = async (w) => {
  const h = w.main;
  const execId = await unknownExecution(h, PEOPLE.requester);
  const proposal = await proposed(h, execId, A1);
  await h.driver.command(A2, '/resolve', `${execId} paid 0x${'ab'.repeat(32)}`);
  await eventually(async () => (await h.rampart.deps.store.executions.get(execId))?.state === 'succeeded' || undefined);
  return confirm(h, A3, execId, proposal);
};

export const CONFIRM_NOT_PAID = { byRequester, byProposer, withoutPasskey, afterPaid };
