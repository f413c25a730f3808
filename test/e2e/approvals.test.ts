/**
 * Who may approve, how many, never your own, until when (DESIGN
 * invariant 1), through signed clicks on the real card.
 */
import { describe, expect, it } from 'vitest';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('approvals', {
  TWO_APPROVALS_ABOVE: 'USDC=1000,USDT=1000,CNGN=1000000',
  REQUEST_EXPIRY: '2s',
});

const small = () => flow.postTransfer(h, 10, 'small payment');

/** Submits the transfer `text` and expects the form to say what is wrong under `field`, in words that contain `words`. */
async function expectRefused(text: string, field: string, words: string) {
  const r = await flow.submitRequest(h, 'transfer', text);
  expect(r.body).toMatchObject({ response_action: 'errors', errors: { [field]: expect.stringContaining(words) } });
}

describe('approval rules', () => {
  it('refuses self-approval (even by an approver) and a non-approver, changing nothing', async () => {
    const { id } = await flow.postTransfer(h, 10, 'own request', PEOPLE.approver1);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.noticeSaying(h, PEOPLE.approver1, 'cannot approve', 'self refusal');
    await flow.click(h, PEOPLE.outsider, id, 'request_approve');
    await flow.noticeSaying(h, PEOPLE.outsider, 'not an approver', 'outsider refusal');
    const record = await h.rampart.deps.store.get(id);
    expect(record?.state).toBe('pending');
    expect(record?.votes).toEqual([]);
    expect(flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === 10)).toHaveLength(
      0,
    );
  });

  it('counts a member of an approver user group', async () => {
    const { id } = await small();
    await flow.click(h, PEOPLE.groupMember, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
  });

  it('needs two different approvers above the threshold; one person clicking twice counts once', async () => {
    const { id } = await flow.postTransfer(h, 1500, 'big payment');
    expect(blocksText(flow.currentCard(h, id))).toContain('2 approvals: amount over 1,000 USDC');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.noticeSaying(h, PEOPLE.approver1, 'already approved', 'duplicate notice');
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
    await eventually(
      () => (blocksText(flow.currentCard(h, id)).includes('1 of 2') ? true : undefined),
      3000,
      'card shows 1 of 2',
    );
    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    const done = await flow.waitForState(h, id, 'succeeded');
    expect(done.votes.map((v) => v.user)).toEqual([PEOPLE.approver1, PEOPLE.approver2]);
    const calls = flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === 1500);
    expect(calls).toHaveLength(1);
  });

  it('denies with a reason given in a modal; the thread says why and the buttons are gone', async () => {
    const { id, card: posted } = await small();
    const stale = structuredClone(posted);
    await flow.click(h, PEOPLE.approver2, id, 'request_deny');
    const modal = await eventually(
      () => h.fake.views(PEOPLE.approver2).find((v) => v.callback_id === 'deny_modal'),
      3000,
      'deny modal',
    );
    const empty = await h.driver.submitView(PEOPLE.approver2, modal, { reason: '' });
    expect(empty.body).toMatchObject({ response_action: 'errors', errors: { reason: expect.any(String) } });
    await h.driver.submitView(PEOPLE.approver2, modal, { reason: 'wrong vendor address' });
    await flow.waitForState(h, id, 'denied');
    const reply = await flow.threadReply(h, id, 'denied', 10_000, 'deny reply');
    expect(reply.text).toContain('wrong vendor address');
    await eventually(
      () => (!blocksText(flow.currentCard(h, id)).includes('request_approve') ? true : undefined),
      3000,
      'buttons removed',
    );
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: stale, channel: 'C0APPROVALS' });
    await flow.noticeSaying(h, PEOPLE.approver1, 'already denied', 'late click notice');
    expect((await h.rampart.deps.store.history(id)).map((e) => e.event)).toEqual(['requested', 'denied']);
  });

  it('lets only the requester cancel while pending', async () => {
    const { id } = await small();
    await flow.click(h, PEOPLE.approver1, id, 'request_cancel');
    await flow.noticeSaying(h, PEOPLE.approver1, 'Only the requester', 'cancel refusal');
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
    await flow.click(h, PEOPLE.requester, id, 'request_cancel');
    await flow.waitForState(h, id, 'cancelled');
    await eventually(() => flow.threadOf(h, id).find((m) => m.text.includes('cancelled')), 10_000, 'cancel reply');
  });

  it('expires a pending request by a delayed job: the card says so, and a late approval is refused', async () => {
    const { id, card: posted } = await small();
    const stale = structuredClone(posted); // what an approver still sees on a screen not yet refreshed
    await flow.waitForState(h, id, 'expired', 8000);
    await eventually(() => flow.threadOf(h, id).find((m) => m.text.includes('expired')), 10_000, 'expiry reply');
    const card = blocksText(flow.currentCard(h, id));
    expect(card).toContain('Expired');
    expect(card).not.toContain('request_approve');
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: stale, channel: 'C0APPROVALS' });
    await flow.noticeSaying(h, PEOPLE.approver1, 'expired', 'late approval refusal');
    expect((await h.rampart.deps.store.get(id))?.state).toBe('expired');
  });

  it('records every state change with who and when', async () => {
    const { id } = await small();
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    const history = await h.rampart.deps.store.history(id);
    expect(history.map((e) => e.event)).toEqual([
      'requested',
      'approval',
      'approved',
      'queued',
      'executing',
      'succeeded',
    ]);
    expect(history[0]?.by).toBe(PEOPLE.requester);
    expect(history[1]?.by).toBe(PEOPLE.approver1);
    expect(history.every((e) => typeof e.at === 'number')).toBe(true);
  });
});

describe('repeated submissions', () => {
  it('turns one submitted form into one request, even if Slack delivers it twice', async () => {
    const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
    await h.driver.command(
      PEOPLE.requester,
      '/transfer',
      `16 base:usdc to ${flow.RECEIVER} from ops for double submit`,
    );
    const view = await eventually(() => h.fake.views(PEOPLE.requester).find((v) => !seen.has(v.id)), 10_000, 'modal');
    const cardsBefore = h.fake.messages('C0APPROVALS').length;
    const [a, b] = await Promise.all([
      h.driver.submitView(PEOPLE.requester, view, {}),
      h.driver.submitView(PEOPLE.requester, view, {}),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await eventually(() => (h.fake.messages('C0APPROVALS').length > cardsBefore ? true : undefined), 10_000, 'a card');
    await flow.quiescent(h);
    const cards = h.fake.messages('C0APPROVALS').slice(cardsBefore);
    expect(cards).toHaveLength(1);
  });
});

describe('modal validation', () => {
  it('shows field errors for bad input and posts nothing', async () => {
    const cardsBefore = h.fake.messages('C0APPROVALS').length;
    const transfersBefore = flow.serviceCalls(h, '/transfer').length;
    const bad = await flow.submitRequest(
      h,
      'transfer',
      `1.1234567 base:usdc to ${flow.RECEIVER.toLowerCase().replace('0x99ed', '0x99eD')} from ops for x`,
    );
    expect(bad.body).toMatchObject({
      response_action: 'errors',
      errors: {
        amount: expect.stringContaining('6 decimal'),
        receiver: expect.stringContaining('checksum'),
        reason: expect.any(String),
      },
    });
    await expectRefused(`999999999 base:usdc to ${flow.RECEIVER} from ops for too much`, 'amount', 'available');
    await expectRefused(`5 polygon:usdc to ${flow.RECEIVER} from payroll for nope`, 'wallet', 'turned off');
    await expectRefused(`5 optimism:usdc to ${flow.RECEIVER} from legacy for nope`, 'wallet', 'inactive');
    await expectRefused(`5 solana:usdc to ${flow.RECEIVER} from ops for nope`, 'receiver', 'Solana');
    expect(h.fake.messages('C0APPROVALS')).toHaveLength(cardsBefore);
    expect(flow.serviceCalls(h, '/transfer')).toHaveLength(transfersBefore);
  });
});
