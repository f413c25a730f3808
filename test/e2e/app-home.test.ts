/**
 * App Home opened through the harness. Buttons open the same modal and answer
 * as the commands; an approver sees "Needs your vote" first, with the card's link, each row once.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_CALLBACK } from '../../src/adapters/slack/blocks/request-modal.js';
import { APPROVALS, blocksText, eventually, lastView, PEOPLE } from '../support/harness.js';
import { useHarness } from '../support/use-harness.js';

const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

const h = useHarness('app-home');

async function requestTransfer(text: string) {
  const before = h.fake.messages(APPROVALS).length;
  await h.driver.command(PEOPLE.requester, '/transfer', text);
  const view = await eventually(() => lastView(h.fake, PEOPLE.requester), 10_000, 'transfer modal');
  const submit = await h.driver.submitView(PEOPLE.requester, view, {});
  expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'approval card');
  const id = /R-\d+/.exec(blocksText(card))?.[0];
  if (!id) throw new Error('card without a request id');
  return { id, card };
}

/** Opens Home and waits for a published view newer than `after` (Home is republished on each open). */
async function openHome(user: string) {
  const after = h.fake.home(user);
  expect((await h.driver.openHome(user)).status).toBe(200);
  return eventually(
    () => {
      const home = h.fake.home(user);
      return home && home !== after && JSON.stringify(home) !== JSON.stringify(after) ? home : undefined;
    },
    10_000,
    'home view',
  );
}

describe('App Home', () => {
  it('shows an approver what needs their vote first, linking the card, each request once', async () => {
    const { id, card } = await requestTransfer(`7 base:usdc to ${RECEIVER} from ops for home tab`);
    const home = await openHome(PEOPLE.approver1);
    const text = blocksText(home);
    expect(text).toContain('Needs your vote* (1)');
    const permalink = `/archives/${APPROVALS}/p${card.ts.replace('.', '')}`;
    const row = text.split('\n').find((l) => l.includes(id) && l.includes('Open card'));
    expect(row).toContain(permalink);
    expect(row).toContain('ops → 0x99ED…EdcF');
    expect(text.split(id).length - 1).toBe(1);
    // The requester may not vote on their own request: no vote section asks them to.
    const own = blocksText(await openHome(PEOPLE.requester));
    expect(own).not.toContain('Needs your vote');
    expect(own).toContain('Waiting for approval* (1)');
  });

  it('New transfer opens the transfer modal; Balances opens the balances answer', async () => {
    const home = await openHome(PEOPLE.outsider);
    const seen = new Set(h.fake.views(PEOPLE.outsider).map((v) => v.id));
    expect((await h.driver.click(PEOPLE.outsider, { action_id: 'home_transfer', view: home })).status).toBe(200);
    const modal = await eventually(
      () => h.fake.views(PEOPLE.outsider).find((v) => !seen.has(v.id)),
      10_000,
      'transfer modal',
    );
    expect(modal.callback_id).toBe(REQUEST_CALLBACK.transfer);
    // Its answers go to the App Home's own DM, which the Home view kept.
    expect(modal.private_metadata).toContain('D0OUTSIDER');
    for (const v of h.fake.views(PEOPLE.outsider)) seen.add(v.id);
    await h.driver.click(PEOPLE.outsider, { action_id: 'home_balance', view: home });
    const balances = await eventually(
      () => {
        const v = h.fake.views(PEOPLE.outsider).find((x) => !seen.has(x.id));
        return v && /available on/.test(blocksText(v)) ? v : undefined;
      },
      10_000,
      'balances modal',
    );
    expect(blocksText(balances)).toContain('USDC* available on Base');
  });
});
