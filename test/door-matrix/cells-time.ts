/**
 * The time rows' drivers: an approval above DELAY_ABOVE (TIME_ENV's harness) approved for real, then its
 * start tried by the quorum's wake (not_yet), or a second cancel inside its wait from
 * the card or the API (not_waiting: the first cancel already ended it).
 */
import { newKey } from '../api/support.js';
import { APPROVALS, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { apiCode } from './readers.js';
import type { DecisionDoor } from './table.js';
import { AMOUNT, cards, clickCard, type Driver, newestCardId, viaApiTransfer, viaPrefill } from './world.js';

const CANCEL_WAITING = 'request_cancel_waiting';

/** Approved by one click and waiting for its runAt. */
async function approvedWaiting(h: Harness, id: string): Promise<void> {
  const message = h.fake.messages(APPROVALS).at(-1);
  if (!message) throw new Error('no card to click');
  await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message, channel: APPROVALS, value: id });
  await eventually(async () => ((await h.rampart.deps.store.get(id))?.runAt !== undefined ? true : undefined));
}

async function delayedRequest(h: Harness): Promise<string> {
  const before = cards(h);
  const code = await viaPrefill(h, PEOPLE.requester, 'ops', 'base:usdc', AMOUNT.delayed);
  if (code !== 'accepted') throw new Error(`the setup's request was refused: ${code}`);
  return newestCardId(h, before);
}

/** The quorum's wake tried the start: refused and waiting, or it ran. */
const notYetAfterApprove: Driver = async (w) => {
  const h = w.time;
  const id = await delayedRequest(h);
  await approvedWaiting(h, id);
  // A worker's wake runner tried it: its try waits in the delayed set (the start refused it
  // `not-yet`, so nothing else queues a delayed try), or the payment ran.
  return eventually(async () => {
    const jobs = await h.rampart.deps.queues.execute.getJobs(['delayed']);
    const tried = jobs.filter((j) => j.data.executionId === `${id}.1`);
    const record = await h.rampart.deps.store.get(id);
    if (record?.state !== 'approved') return `accepted (${record?.state})`;
    return tried.length > 0 && record.executions[0]?.tries === 0 ? 'not_yet' : undefined;
  });
};

export const TIME_DRIVERS: {
  not_yet: Partial<Record<DecisionDoor, Driver>>;
  waiting_cancel: Partial<Record<DecisionDoor, Driver>>;
} = {
  not_yet: { 'approve-button': notYetAfterApprove },
  waiting_cancel: {
    'cancel-waiting-card': async (w) => {
      const h = w.time;
      const id = await delayedRequest(h);
      await approvedWaiting(h, id);
      // Another approver cancelled a moment before (the cancel's own script).
      const first = await h.rampart.deps.store.executions.cancelWaiting(id, {
        event: 'cancelled',
        by: PEOPLE.approver2,
      });
      if (!first.ok) throw new Error(`the setup's cancel was refused: ${first.why}`);
      return clickCard(h, PEOPLE.approver1, id, CANCEL_WAITING);
    },
    'cancel-waiting-api': async (w) => {
      const { token } = await newKey(w.timeApi, { limits: { allowNewDestinations: true } });
      const before = cards(w.time);
      if ((await viaApiTransfer(w.timeApi, { amount: String(AMOUNT.delayed) }, token)) !== 'accepted')
        throw new Error('setup refused');
      const id = await newestCardId(w.time, before);
      await approvedWaiting(w.time, id);
      const cancel = (n: number) =>
        w.timeApi.call('POST', `/requests/${id}/cancel`, { token, idempotencyKey: `cw-${id}-${n}` });
      const first = await cancel(1);
      if (first.status !== 200) throw new Error(`the setup's cancel was refused: ${first.status}`);
      return apiCode(await cancel(2));
    },
  },
};
