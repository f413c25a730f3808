/** App Home's buttons, "Needs your vote" with the card's link, rows with from → to, no row twice. */
import { describe, expect, it } from 'vitest';
import { HOME_ACTIONS, homeView } from '../../../src/adapters/slack/blocks/home.js';
import { activityBlocks } from '../../../src/adapters/slack/blocks/home-dashboard.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord } from '../../support/factories.js';

const pending = buildRecord('pending');
const voted = {
  ...pending,
  sealed: { ...pending.sealed, id: 'R-1002' },
  votes: [{ user: 'U0APPROVER1', at: 0 }],
};
const paid = buildRecord('succeeded', 'offramp');
const older = { ...paid, sealed: { ...paid.sealed, id: 'R-1000' } };
const input = { pending: [pending, voted], recent: [pending, voted, older] };
const LINK = 'https://rampart.slack.local/archives/C0APPROVALS/p1795253400000100';

const buttons = (blocks: unknown[]) =>
  blocks.flatMap((b) => ((b as { type: string }).type === 'actions' ? (b as { elements: unknown[] }).elements : []));

describe('App Home', () => {
  it('starts with New transfer, New offramp and Balances', () => {
    const view = homeView(input);
    expect(view.blocks[1]?.type).toBe('actions');
    expect(buttons(view.blocks).map((e) => (e as { action_id: string }).action_id)).toEqual([
      HOME_ACTIONS.transfer,
      HOME_ACTIONS.offramp,
      HOME_ACTIONS.balance,
    ]);
  });

  it('an approver sees first what needs their vote, with the card link; each request once', () => {
    const view = homeView({ ...input, approver: { user: 'U0APPROVER1', links: new Map([['R-1001', LINK]]) } });
    expect(readableTexts(view.blocks).join('\n')).toMatchInlineSnapshot(`
      "Rampart
      New transfer
      New offramp
      Balances
      Balances \`/balance\` · rates \`/rate\` · bank lookup \`/lookup\` · payments \`/transfer\`, \`/offramp\` · series \`/schedules\` · setup \`/identity\`, \`/beneficiary\` · stop everything \`/freeze\`. Add \`help\` to any command for its usage.
      *Needs your vote* (1)
      *R-1001* · 1,250.50 USDC (Base) ops → 0x99ED…EdcF · pending · by <@U0REQUESTER> <!date^1795253400^{date_short_pretty} {time}|2026-11-21 09:30 UTC> · <https://rampart.slack.local/archives/C0APPROVALS/p1795253400000100|Open card>
      *Also waiting* (1)
      *R-1002* · 1,250.50 USDC (Base) ops → 0x99ED…EdcF · pending · by <@U0REQUESTER> <!date^1795253400^{date_short_pretty} {time}|2026-11-21 09:30 UTC>
      *Recent requests*
      *R-1000* · 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · succeeded · by <@U0REQUESTER> <!date^1795253400^{date_short_pretty} {time}|2026-11-21 09:30 UTC>"
    `);
  });

  it('the requester is never asked to vote on their own request; others see no vote section', () => {
    const own = readableTexts(homeView({ ...input, approver: { user: 'U0REQUESTER', links: new Map() } }).blocks);
    expect(own).toContain('*Needs your vote* (0)');
    expect(own).toContain('*Also waiting* (2)');
    const outsider = readableTexts(homeView(input).blocks);
    expect(outsider.join('\n')).not.toContain('Needs your vote');
    expect(outsider).toContain('*Waiting for approval* (2)');
  });
});

describe('App Home velocity limits', () => {
  it('names the setting as code when none is set, never half-italic around its underscore', () => {
    const none = { wallets: [], limits: [], waiting: [], outcomes: [], freeze: undefined };
    const text = readableTexts(activityBlocks(none, new Map())).join('\n');
    expect(text).toContain('No velocity limits are set (`VELOCITY_LIMITS`).');
    expect(text).not.toContain('_No velocity');
  });
});
