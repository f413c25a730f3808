/**
 * Reminders, escalation and the requester's messages, with REMINDER_AFTER=1s: only
 * approvers who have not voted are reminded, at most REMINDER_MAX times, never after a decision;
 * ESCALATE_TO hears of a request still pending; the requester's messages carry link or reason.
 * Absence is proven by waiting until the reminder queue is quiet, not by a fixed sleep.
 */
import { describe, expect, it } from 'vitest';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const BOSS = 'U0BOSS';
const h = useHarness('reminders', {
  REMINDER_AFTER: '1s',
  REMINDER_MAX: '2',
  ESCALATE_AFTER: '1500ms',
  ESCALATE_TO: BOSS,
  TWO_APPROVALS_ABOVE: 'USDC=100',
});

/** Direct messages: Rampart posts them with the user id as the channel. */
const dms = (user: string, id: string) => h.fake.messages(user).filter((m) => m.text.includes(id));
const reminders = (user: string, id: string) => dms(user, id).filter((m) => m.text.includes('Reminder'));

/** Until no reminder or escalation job is waiting, delayed or running (twice in a row). */
async function remindersQuiet() {
  let quietOnce = false;
  await eventually(
    async () => {
      const counts = await h.rampart.deps.queues.reminders.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
      const busy = Object.values(counts).some((n) => n > 0);
      const settled = !busy && quietOnce;
      quietOnce = !busy;
      return settled ? true : undefined;
    },
    15_000,
    'the reminder queue to be quiet',
  );
  await flow.quiescent(h);
}

describe('reminders and escalation', () => {
  let twoStep: string;

  it('reminds only the approvers who have not voted, at most REMINDER_MAX times, with a link to the card', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `150 base:usdc to ${flow.RECEIVER} from ops for reminders`);
    twoStep = id;
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    await remindersQuiet();
    expect(reminders(PEOPLE.approver2, id)).toHaveLength(2);
    expect(reminders(PEOPLE.groupMember, id)).toHaveLength(2);
    expect(reminders(PEOPLE.approver1, id)).toHaveLength(0);
    expect(reminders(PEOPLE.requester, id)).toHaveLength(0);
    expect(reminders(PEOPLE.outsider, id)).toHaveLength(0);
    expect(reminders(PEOPLE.approver2, id)[0]?.text).toMatch(/<https?:\/\/[^|]+\|Open the card>/);
    // The requester heard of the first approval.
    expect(dms(PEOPLE.requester, id).some((m) => m.text.includes(`<@${PEOPLE.approver1}> approved your ${id}`))).toBe(
      true,
    );
  });

  it('escalates a request still pending to ESCALATE_TO, and the card says so', async () => {
    const boss = await eventually(() => dms(BOSS, twoStep)[0], 5000, 'the escalation');
    expect(boss.text).toContain('Escalation');
    await eventually(
      () => (blocksText(flow.currentCard(h, twoStep)).includes('Escalated') ? true : undefined),
      5000,
      'the escalated card',
    );
    expect(dms(PEOPLE.approver2, twoStep).filter((m) => m.text.includes('Escalation'))).toHaveLength(0);
  });

  it('tells the requester the outcome with the explorer link; nobody is reminded after the decision', async () => {
    await flow.click(h, PEOPLE.approver2, twoStep, 'request_approve');
    await flow.waitForState(h, twoStep, 'succeeded');
    const done = await eventually(
      () => dms(PEOPLE.requester, twoStep).find((m) => m.text.includes('succeeded')),
      5000,
      'the success message',
    );
    expect(done.text).toMatch(/basescan\.org\/tx\//);

    const { id } = await flow.postRequest(h, 'transfer', `20 base:usdc to ${flow.RECEIVER} from ops for decided fast`);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    await remindersQuiet();
    for (const user of [PEOPLE.approver1, PEOPLE.approver2, PEOPLE.groupMember])
      expect(reminders(user, id)).toEqual([]);
    expect(dms(BOSS, id)).toEqual([]);
  });

  it('tells the requester a denial with its reason', async () => {
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `30 base:usdc to ${flow.RECEIVER} from ops for will be denied`,
    );
    await flow.click(h, PEOPLE.approver2, id, 'request_deny');
    const modal = await eventually(
      () => h.fake.views(PEOPLE.approver2).find((v) => v.callback_id === 'deny_modal'),
      3000,
      'deny modal',
    );
    await h.driver.submitView(PEOPLE.approver2, modal, { reason: 'wrong vendor address' });
    await flow.waitForState(h, id, 'denied');
    const denied = await eventually(
      () => dms(PEOPLE.requester, id).find((m) => m.text.includes('denied')),
      5000,
      'the denial message',
    );
    expect(denied.text).toContain('wrong vendor address');
    await remindersQuiet();
    for (const user of [PEOPLE.approver1, PEOPLE.approver2, PEOPLE.groupMember])
      expect(reminders(user, id)).toEqual([]);
  });
});
