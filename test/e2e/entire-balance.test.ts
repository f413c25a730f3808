/**
 * DESIGN invariant 2: "entire available balance" never moves more than the approvers
 * saw. It is sealed at submission as the exact amount the card shows; -1 is never sent, so a
 * deposit between submission and execution stays in the wallet, with or without a velocity rule,
 * and a balance that fell below the sealed amount is refused by the service (nothing moves).
 */
import { describe, expect, it } from 'vitest';
import { amountFromNumber } from '../../src/domain/amount.js';
import type { AssetId } from '../../src/domain/assets.js';
import { assetInfo } from '../../src/domain/assets.js';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const OPS = 'wal_ops_7f3a';
const TREASURY = 'wal_treasury_91c2';

const h = useHarness('entire-balance', { VELOCITY_LIMITS: 'ops:USDC=100/24h' });

/** Sets what the sandbox wallet has available of an asset, as a deposit or a withdrawal would. */
function setAvailable(wallet: string, asset: AssetId, amount: number): void {
  const holding = h.sandbox.state.balances.get(wallet)?.get(asset);
  if (!holding) throw new Error(`${wallet} holds no ${asset}`);
  const units = amountFromNumber(amount, assetInfo(asset).decimals).units;
  holding.balance += units - holding.available;
  holding.available = units;
}

const available = (wallet: string, asset: AssetId) => h.sandbox.state.balanceOf(wallet, asset)?.available;

describe('"entire available balance" is sealed at submission', () => {
  it('under a velocity rule: a deposit after submission is not swept and the ledger counts what moved', async () => {
    setAvailable(OPS, 'base:usdc', 50);
    const { id, card } = await flow.postRequest(h, 'transfer', `all base:usdc to ${flow.RECEIVER} from ops for sweep`);
    expect(blocksText(card)).toContain('All available at submission: *50.00* USDC');
    expect(blocksText(card)).toContain('50.00 → 0.00');
    setAvailable(OPS, 'base:usdc', 100_050); // 100,000 USDC arrive before anyone approves
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    expect(flow.serviceCalls(h, '/transfer').at(-1)?.body).toEqual({
      wallet_id: OPS,
      amount: 50,
      receiver: flow.RECEIVER,
      asset: 'base:usdc',
    });
    expect(available(OPS, 'base:usdc')).toBe(100_000);
    const reply = await eventually(() => flow.threadOf(h, id).find((m) => m.text.includes('succeeded')), 8000, 'reply');
    expect(reply.text).toContain('anything that arrived since stays in ops');
    // The ledger holds 50 (what moved): 60 more would break the 100 USDC rule.
    const refused = await flow.submitRequest(h, 'transfer', `60 base:usdc to ${flow.RECEIVER} from ops for more`);
    expect((refused.body as { errors?: { amount?: string } }).errors?.amount).toContain(
      'Limit for ops: 100.00 USDC per 24 h. 50.00 left',
    );
  });

  it('without a velocity rule: a deposit after submission stays in the wallet', async () => {
    setAvailable(TREASURY, 'arbitrum:usdt', 1_000);
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `all arbitrum:usdt to ${flow.RECEIVER} from treasury for sweep`,
    );
    expect(blocksText(flow.currentCard(h, id))).toContain('All available at submission: *1,000.00* USDT');
    setAvailable(TREASURY, 'arbitrum:usdt', 501_000);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    expect(flow.serviceCalls(h, '/transfer').at(-1)?.body).toMatchObject({ amount: 1000, asset: 'arbitrum:usdt' });
    expect(available(TREASURY, 'arbitrum:usdt')).toBe(500_000);
    expect(flow.serviceCalls(h, '/transfer').some((c) => (c.body as { amount?: number }).amount === -1)).toBe(false);
  });

  it('a balance that fell below the sealed amount: the service refuses, the request fails and nothing moves', async () => {
    setAvailable(TREASURY, 'ethereum:usdc', 2_000);
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `all ethereum:usdc to ${flow.RECEIVER} from treasury for sweep`,
    );
    setAvailable(TREASURY, 'ethereum:usdc', 1_500);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const record = await flow.waitForState(h, id, 'failed');
    expect(record.outcome?.failure?.class).toBe('refused');
    expect(flow.serviceCalls(h, '/transfer').at(-1)?.body).toMatchObject({ amount: 2000, asset: 'ethereum:usdc' });
    expect(available(TREASURY, 'ethereum:usdc')).toBe(1_500);
  });
});
