/**
 * Velocity limits through signed Slack requests: refused submissions name the figures,
 * concurrent approvals can never both fit, failed gives headroom back, unknown keeps it, and
 * the window rolls with an injected clock.
 */
import { describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let offset = 0;
const h = useHarness(
  'velocity',
  {
    VELOCITY_LIMITS: 'ops:USDC=100/24h,treasury:USDC=100/24h,ops:USDT=100/24h',
    SERVICE_RESPONSE_TIMEOUT: '800ms',
  },
  { rampart: { infra: { clock: () => Date.now() + offset } } },
);

const refusal = (body: unknown) => (body as { errors?: { amount?: string } }).errors?.amount;
const quiet = () => flow.quiescent(h);

describe('velocity limits', () => {
  it('refuses a submission over the limit with one sentence naming the rule, used and left; the card shows them', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `60 base:usdc to ${flow.RECEIVER} from ops for first half`);
    expect(blocksText(flow.currentCard(h, id))).toContain('Limit for ops: 100.00 USDC per 24 h. 100.00 left');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    const refused = await flow.submitRequest(
      h,
      'transfer',
      `50 solana:usdc to 7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r from ops for too much`,
    );
    expect(refusal(refused.body)).toBe(
      'This is over the limit. Limit for ops: 100.00 USDC per 24 h. 40.00 left, and this request is 50.00 USDC: ask for at most what is left, or wait for earlier payments to leave the 24 h window.',
    );
    const { id: fits } = await flow.postRequest(
      h,
      'transfer',
      `40 base:usdc to ${flow.RECEIVER} from ops for the rest`,
    );
    expect(blocksText(flow.currentCard(h, fits))).toContain(
      'Limit for ops: 100.00 USDC per 24 h. 40.00 left; 0.00 after this.',
    );
  });

  it('lets the window roll: 24 h after an approval its amount no longer counts', async () => {
    const before = await flow.submitRequest(h, 'transfer', `50 base:usdc to ${flow.RECEIVER} from ops for next day`);
    expect(refusal(before.body)).toContain('Limit for ops: 100.00 USDC per 24 h. 40.00 left');
    offset += 24 * 3_600_000 + 1000;
    const { id } = await flow.postRequest(h, 'transfer', `50 base:usdc to ${flow.RECEIVER} from ops for next day`);
    expect(blocksText(flow.currentCard(h, id))).toContain('Limit for ops: 100.00 USDC per 24 h. 100.00 left');
  });

  it('20 concurrent Approve clicks on two requests that fit alone but not together approve and execute exactly one', async () => {
    const a = await flow.postRequest(h, 'transfer', `60 ethereum:usdc to ${flow.RECEIVER} from treasury for race a`);
    const b = await flow.postRequest(h, 'transfer', `60 ethereum:usdc to ${flow.RECEIVER} from treasury for race b`);
    const clicks = Array.from({ length: 20 }, (_, i) =>
      flow.click(
        h,
        i % 2 === 0 ? PEOPLE.approver1 : PEOPLE.approver2,
        Math.floor(i / 2) % 2 === 0 ? a.id : b.id,
        'request_approve',
      ),
    );
    expect((await Promise.all(clicks)).every((r) => r.status === 200)).toBe(true);
    await quiet();
    console.log(
      JSON.stringify(await h.rampart.deps.store.history(a.id)),
      JSON.stringify(await h.rampart.deps.store.history(b.id)),
    );
    const records = await Promise.all([a.id, b.id].map((id) => h.rampart.deps.store.get(id)));
    expect(records.map((r) => r?.state).sort()).toEqual(['pending', 'succeeded']);
    const calls = flow
      .serviceCalls(h, '/transfer')
      .filter((c) => (c.body as { wallet_id?: string }).wallet_id === 'wal_treasury_91c2');
    expect(calls).toHaveLength(1);
    const pending = records.find((r) => r?.state === 'pending');
    const pendingId = pending?.sealed.id ?? '';
    expect(pending?.votes).toEqual([]);
    expect(pending?.held).toContain('Limit for treasury: 100.00 USDC per 24 h. 40.00 left');
    await eventually(
      () => blocksText(flow.currentCard(h, pendingId)).includes('Approval held') || undefined,
      5000,
      'held card',
    );
    expect(flow.ephemeralText(h, PEOPLE.approver1) + flow.ephemeralText(h, PEOPLE.approver2)).toContain(
      'stays pending and your approval was not counted',
    );
  });

  it('a failed request gives its headroom back; an unknown one keeps it', async () => {
    const first = await flow.postRequest(h, 'transfer', `80 ethereum:usdt to ${flow.RECEIVER} from ops for will fail`);
    h.sandbox.faults.failNext('/transfer', 1, { status: 422 });
    await flow.click(h, PEOPLE.approver1, first.id, 'request_approve');
    await flow.waitForState(h, first.id, 'failed');
    const second = await flow.postRequest(
      h,
      'transfer',
      `80 ethereum:usdt to ${flow.RECEIVER} from ops for will be unknown`,
    );
    h.sandbox.faults.hangAfterApply('/transfer', 1);
    await flow.click(h, PEOPLE.approver1, second.id, 'request_approve');
    await flow.waitForState(h, second.id, 'unknown');
    const refused = await flow.submitRequest(
      h,
      'transfer',
      `30 ethereum:usdt to ${flow.RECEIVER} from ops for after unknown`,
    );
    expect(refusal(refused.body)).toBe(
      'This is over the limit. Limit for ops: 100.00 USDT per 24 h. 20.00 left, and this request is 30.00 USDT: ask for at most what is left, or wait for earlier payments to leave the 24 h window.',
    );
    await quiet();
    expect(h.fake.messages(APPROVALS).length).toBeGreaterThan(0);
  });
});
