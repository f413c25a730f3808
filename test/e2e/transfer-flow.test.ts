/**
 * The whole transfer journey through signed Slack requests: command → modal → card →
 * approval → worker → service → thread reply with the explorer link (the happy paths).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, cardFor, eventually, lastView, PEOPLE } from '../support/harness.js';
import { openModal } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

const h = useHarness('transfer-flow', { TWO_APPROVALS_ABOVE: 'USDC=10000,USDT=10000,CNGN=15000000' });
afterAll(async () => {
  // Bolt's identity lookup happens once per process, not before every ack.
  expect(h.fake.callsTo('auth.test')).toHaveLength(1);
});

async function requestTransfer(text: string, values: Record<string, string | string[]> = {}) {
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.command(PEOPLE.requester, '/transfer', text);
  expect(ack.status).toBe(200);
  const view = await eventually(() => lastView(h.fake, PEOPLE.requester), 10_000, 'transfer modal');
  const submit = await h.driver.submitView(PEOPLE.requester, view, values);
  expect(submit.status).toBe(200);
  expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'approval card');
  const id = /R-\d+/.exec(blocksText(card))?.[0];
  if (!id) throw new Error('card without a request id');
  return { id, card };
}

function approveButton(id: string) {
  const card = cardFor(h.fake, id);
  if (!card) throw new Error(`no card for ${id}`);
  return card;
}

describe('transfer, from slash command to thread reply', () => {
  it('runs exactly the approved transfer once and posts the explorer link in the thread', async () => {
    const { id } = await requestTransfer(`25 base:usdc to ${RECEIVER} from ops for invoice 7`);
    const card = approveButton(id);
    expect(blocksText(card)).toContain('25.00');
    expect(blocksText(card)).toContain('never paid this address before');
    const click = await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: card });
    expect(click.status).toBe(200);
    const reply = await eventually(
      () => h.fake.thread(APPROVALS, card.ts).find((m) => m.text.includes('succeeded')),
      8000,
      'thread reply',
    );
    expect(reply.text).toContain('https://basescan.org/tx/0x');
    expect(reply.text).toContain(`<@${PEOPLE.requester}>`);
    const calls = h.sandbox.state.received.filter((r) => r.path === '/transfer');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ wallet_id: 'wal_ops_7f3a', amount: 25, receiver: RECEIVER, asset: 'base:usdc' });
    const final = await eventually(
      () => (blocksText(cardFor(h.fake, id)).includes('Succeeded') ? cardFor(h.fake, id) : undefined),
      5000,
      'card final',
    );
    expect(blocksText(final)).not.toContain('request_approve');
  });
});

describe('entire balance and offramp', () => {
  it('seals "entire available balance" as the exact amount available at submission and never sends -1', async () => {
    const before = h.sandbox.state.balanceOf('wal_ops_7f3a', 'solana:usdc');
    const { id, card } = await requestTransfer(
      'all solana:usdc to 7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r from ops for sweep to cold wallet',
    );
    expect(blocksText(card)).toContain('All available at submission: *48,250.00* USDC');
    // The policy judges the sealed amount (over the 10,000 USDC threshold), not "amount not fixed".
    expect(blocksText(card)).toContain('2 approvals: amount over 10,000 USDC');
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: approveButton(id) });
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    await h.driver.click(PEOPLE.approver2, { action_id: 'request_approve', message: approveButton(id) });
    await eventually(
      () => h.fake.thread(APPROVALS, card.ts).find((m) => m.text.includes('succeeded')),
      8000,
      'thread reply',
    );
    const call = h.sandbox.state.received.filter((r) => r.path === '/transfer').at(-1);
    expect(call?.body).toEqual({
      wallet_id: 'wal_ops_7f3a',
      amount: 48250,
      receiver: '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r',
      asset: 'solana:usdc',
    });
    expect(h.sandbox.state.balanceOf('wal_ops_7f3a', 'solana:usdc')?.available).toBe(0);
    expect(before?.available).toBeGreaterThan(0);
  });
});

describe('the transfer modal', () => {
  it('offers only the assets the chosen wallet holds, each with its available amount, and follows a wallet change', async () => {
    const form = await openModal(h, PEOPLE.requester, '/transfer', 'from treasury');
    const modal = await form.until((t) => /\d available/.test(t), 'asset list with balances');
    const text = blocksText(modal);
    expect(text).toContain('ethereum:usdc');
    expect(text).toContain('2,400,000.00 available');
    expect(text).not.toContain('base:usdc');
    await h.driver.click(PEOPLE.requester, { action_id: 'wallet', view: modal, value: 'ops' });
    const updated = await form.until((t) => t.includes('base:usdc'), 'asset list of ops');
    expect(blocksText(updated)).toMatch(/\(base:usdc\) · [\d,]+\.\d\d available/); // other tests in this file spend from ops
    expect(blocksText(updated)).not.toContain('ethereum:usdc');
    h.fake.closeView(PEOPLE.requester, updated.id);
  });
});
