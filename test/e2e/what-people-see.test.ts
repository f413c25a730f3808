/**
 * What people see, through signed Slack requests: a mistyped pre-fill is left unchosen with a
 * warning; /freeze without a reason stays instant and takes its reason later, a non-approver is
 * told who can freeze; a frozen card is on hold without Approve.
 */
import { describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import { currentCard, ephemeralText, postRequest, quiescent, RECEIVER } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('what-people-see');

/** Opens `/transfer text` and returns the modal once it has settled (any refresh done). */
async function openTransfer(text: string) {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/transfer', text);
  const view = await eventually(
    () => h.fake.views(PEOPLE.requester).find((v) => !seen.has(v.id)),
    10_000,
    'transfer modal',
  );
  await quiescent(h);
  return h.fake.views(PEOPLE.requester).find((v) => v.id === view.id) ?? view;
}

const inputBlock = (view: { blocks: unknown[] }, id: string) =>
  view.blocks.find((b) => (b as { block_id?: string }).block_id === id) as { element: Record<string, unknown> };

describe('what people see', () => {
  it('leaves a mistyped wallet unchosen and says so at the top of the modal', async () => {
    const view = await openTransfer(`25 base:usdc to ${RECEIVER} from opz for invoice 7`);
    expect(inputBlock(view, 'wallet').element.initial_option).toBeUndefined();
    expect(blocksText(view)).toContain('“opz” is not a wallet: choose one (ops, treasury');
    h.fake.closeView(PEOPLE.requester, view.id);
  });

  it('clears a decimal-comma amount and warns, rather than leaving it as grey hint text', async () => {
    const view = await openTransfer(`12,50 base:usdc to ${RECEIVER} from ops for invoice 8`);
    expect(inputBlock(view, 'amount').element.initial_value).toBeUndefined();
    expect(blocksText(view)).toContain('a comma may only group thousands');
    expect(blocksText(view)).toContain('The amount box is left empty.');
    expect((inputBlock(view, 'wallet').element.initial_option as { value?: string }).value).toBe('ops');
    h.fake.closeView(PEOPLE.requester, view.id);
  });

  it('tells a non-approver who can freeze', async () => {
    await h.driver.command(PEOPLE.outsider, '/freeze', 'panic', APPROVALS);
    await eventually(() => ephemeralText(h, PEOPLE.outsider) || undefined, 5000, 'the refusal');
    expect(ephemeralText(h, PEOPLE.outsider)).toContain(
      'Only approvers can freeze Rampart: <@U0APPROVER1>, <@U0APPROVER2>, <!subteam^S0TREASURY>. Ask one of them; nothing changed.',
    );
    expect(await h.rampart.deps.controls.freeze()).toBeUndefined();
  });

  it('freezes at once without a reason, offers to add one, then puts it on the open cards; the card is on hold without Approve', async () => {
    const { id } = await postRequest(h, 'transfer', `25 base:usdc to ${RECEIVER} from ops for card on hold`);
    await h.driver.command(PEOPLE.approver1, '/freeze', '', APPROVALS);
    await eventually(() => h.rampart.deps.controls.freeze(), 5000, 'the freeze');
    await eventually(() => ephemeralText(h, PEOPLE.approver1) || undefined, 5000, 'the answer');
    expect(ephemeralText(h, PEOPLE.approver1)).toContain('Add a reason so the team knows why: `/freeze <reason>`.');

    await h.driver.command(PEOPLE.approver2, '/freeze', 'incident 42', APPROVALS);
    const card = await eventually(
      () => (blocksText(currentCard(h, id)).includes('`incident 42`.') ? currentCard(h, id) : undefined),
      8000,
      'the banner with the reason',
    );
    expect((await h.rampart.deps.controls.freeze())?.reason).toBe('incident 42');
    expect(
      h.fake.messages(APPROVALS).some((m) => m.text.includes('added the reason for the freeze: incident 42')),
    ).toBe(true);
    expect(ephemeralText(h, PEOPLE.approver2)).toContain('The reason is added to the freeze');
    // A second reason never replaces the first.
    await h.driver.command(PEOPLE.approver1, '/freeze', 'something else', APPROVALS);
    await eventually(
      () => (ephemeralText(h, PEOPLE.approver1).includes('already frozen') ? true : undefined),
      5000,
      'the refusal',
    );
    expect((await h.rampart.deps.controls.freeze())?.reason).toBe('incident 42');

    // Item 5: on hold, no Approve; the notification text says so too.
    expect(blocksText(card)).toContain('On hold: Rampart is frozen');
    expect(blocksText(card)).not.toContain('Waiting for approval');
    expect(JSON.stringify(card.blocks)).not.toContain('request_approve');
    expect(card.text).toMatch(
      /^On hold, Rampart is frozen: 25\.00 USDC \(Base\) ops → 0x99ED…EdcF · R-\d+ · <@U0REQUESTER>$/,
    );
  });
});
