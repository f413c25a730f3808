/**
 * A slow moment before the ack must not orphan a request: with a private Redis paused
 * by DEBUG SLEEP during a submission, every submission ends in exactly one of "card posted" or
 * "the person was told nothing was submitted"; the same form can then be submitted again; a
 * repeated submit never closes silently; a pending request without card or expiry gets both.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { StoredView } from '../../devkit/index.js';
import { NOTHING_SUBMITTED } from '../../src/adapters/slack/blocks/submitted.js';
import type { ServiceCall } from '../../src/domain/request.js';
import { createSealed } from '../support/factories.js';
import { APPROVALS, blocksText, cardFor, eventually, PEOPLE } from '../support/harness.js';
import { useDebugRedis } from '../support/redis-servers.js';
import { quiescent, RECEIVER } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const { server, admin } = useDebugRedis();
/** DEBUG SLEEP from a connection of its own: the whole server stalls for `seconds`. */
const redis = { stall: async (seconds: number) => void (await admin.call('DEBUG', 'SLEEP', String(seconds))) };
const h = useHarness('stall', () => ({ REDIS_URL: server.url }));

async function openTransfer(text: string): Promise<StoredView> {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  expect((await h.driver.command(PEOPLE.requester, '/transfer', text)).status).toBe(200);
  return eventually(() => h.fake.views(PEOPLE.requester).find((v) => !seen.has(v.id)), 10_000, 'transfer modal');
}

const submit = (view: StoredView) => h.driver.submitView(PEOPLE.requester, view, {});

/** The request this form became, with its card and expiry job, once both exist. */
async function expectCardAndExpiry(id: string) {
  const card = await eventually(() => cardFor(h.fake, id), 15_000, `card of ${id}`);
  expect(blocksText(card)).toContain(id);
  await eventually(async () => (await h.rampart.deps.store.get(id))?.card, 10_000, `card recorded on ${id}`);
  expect(await h.rampart.deps.queues.expire.getJob(`expire-${id}`)).toBeDefined();
}

/**
 * Exactly one of the two outcomes. Told: no request exists for this form (and none at all was
 * added), and the very same form then goes through. Cleared: its card and expiry exist.
 */
async function expectOneOutcome(view: StoredView, ack: Awaited<ReturnType<typeof submit>>, requestsBefore: number) {
  expect(ack.status, 'Slack got an answer in time').toBe(200);
  expect(ack.ackMs).toBeLessThan(3000);
  const body = ack.body as { response_action?: string; errors?: Record<string, string> };
  const told = body.response_action === 'errors' && body.errors?.reason === NOTHING_SUBMITTED;
  const cleared = body.response_action === 'clear';
  expect(told !== cleared, JSON.stringify(body)).toBe(true);
  await h.rampart.redis.ping(); // after whatever the stall held back on this connection
  const id = await h.rampart.deps.store.submittedAs(view.id);
  if (told) {
    expect(id).toBeUndefined();
    expect(await h.rampart.deps.store.recentIds(1000)).toHaveLength(requestsBefore);
    const again = await submit(view);
    expect(again.body).toMatchObject({ response_action: 'clear' });
    const created = await h.rampart.deps.store.submittedAs(view.id);
    if (!created) throw new Error('the second submit made no request');
    await expectCardAndExpiry(created);
    return 'told';
  }
  if (!id) throw new Error('cleared, but no request for this form');
  await expectCardAndExpiry(id);
  return 'card';
}

describe('a Redis stall during a submission', () => {
  it('DEBUG SLEEP 4 before the submit: told that nothing was submitted within 3 s; the same form then goes through', async () => {
    const view = await openTransfer(`21 base:usdc to ${RECEIVER} from ops for stall before`);
    const before = (await h.rampart.deps.store.recentIds(1000)).length;
    const stalled = redis.stall(4);
    await sleep(100);
    const ack = await submit(view);
    await stalled;
    expect(await expectOneOutcome(view, ack, before)).toBe('told');
  });

  it('DEBUG SLEEP 4 while the wallet is being checked: told, never orphaned', async () => {
    const view = await openTransfer(`22 base:usdc to ${RECEIVER} from ops for stall during check`);
    const before = (await h.rampart.deps.store.recentIds(1000)).length;
    h.sandbox.faults.latency(800);
    const stalled = sleep(400).then(() => redis.stall(4));
    const ack = await submit(view);
    await stalled;
    h.sandbox.faults.latency(0);
    expect(await expectOneOutcome(view, ack, before)).toBe('told');
  });

  it('DEBUG SLEEP 4 right after the ack: the card and the expiry come after the stall', async () => {
    const view = await openTransfer(`23 base:usdc to ${RECEIVER} from ops for stall after`);
    const before = (await h.rampart.deps.store.recentIds(1000)).length;
    let stalled: Promise<void> = Promise.resolve();
    const ack = await submit(view).finally(() => {
      stalled = redis.stall(4);
    });
    await stalled;
    expect(await expectOneOutcome(view, ack, before)).toBe('card');
  });
});

describe('the /addresses add form during a stall', () => {
  it('DEBUG SLEEP 4 before the submit: told within 3 s that nothing was submitted; the same form then goes through', async () => {
    const user = PEOPLE.requester;
    const seen = new Set(h.fake.views(user).map((v) => v.id));
    expect((await h.driver.command(user, '/addresses', 'add')).status).toBe(200);
    const view = await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, 'the form');
    const before = (await h.rampart.deps.store.recentIds(1000)).length;
    const typed = { name: 'Stall supplier', chain: 'base', address: RECEIVER, reason: 'stall' };
    const stalled = redis.stall(4);
    await sleep(100);
    const ack = await h.driver.submitView(user, view, typed);
    await stalled;
    expect(ack.status, 'Slack got an answer in time').toBe(200);
    expect(ack.ackMs).toBeLessThan(3000);
    expect(ack.body).toEqual({ response_action: 'errors', errors: { reason: NOTHING_SUBMITTED } });
    await h.rampart.redis.ping();
    expect(await h.rampart.deps.store.submittedAs(view.id)).toBeUndefined();
    expect(await h.rampart.deps.store.recentIds(1000)).toHaveLength(before);
    const again = await h.driver.submitView(user, view, typed);
    expect(JSON.stringify(again.body)).toContain('waiting for approval');
    const id = await h.rampart.deps.store.submittedAs(view.id);
    if (!id) throw new Error('the second submit made no request');
    await expectCardAndExpiry(id);
  });
});

describe('the same form submitted twice', () => {
  it('two submits at once make one request and one card; the other is told where it went', async () => {
    const view = await openTransfer(`24 base:usdc to ${RECEIVER} from ops for double submit`);
    const cards = h.fake.messages(APPROVALS).length;
    const acks = await Promise.all([submit(view), submit(view)]);
    const id = await h.rampart.deps.store.submittedAs(view.id);
    if (!id) throw new Error('no request for the form');
    const actions = acks.map((a) => (a.body as { response_action?: string }).response_action).sort();
    expect(actions).toEqual(['clear', 'update']);
    const told = acks.find((a) => (a.body as { response_action?: string }).response_action === 'update');
    expect(JSON.stringify(told?.body)).toContain(`already submitted as *${id}*`);
    await expectCardAndExpiry(id);
    await quiescent(h); // a wrong second card would show itself by now
    expect(h.fake.messages(APPROVALS).length).toBe(cards + 1);
  });

  it('a second submit after the first went through is told, not closed silently', async () => {
    const view = await openTransfer(`26 base:usdc to ${RECEIVER} from ops for resubmit`);
    expect((await submit(view)).body).toMatchObject({ response_action: 'clear' });
    const id = await h.rampart.deps.store.submittedAs(view.id);
    if (!id) throw new Error('no request for the form');
    const again = await submit(view);
    expect(again.body).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(again.body)).toContain(`already submitted as *${id}*`);
    expect(await h.rampart.deps.store.submittedAs(view.id)).toBe(id);
  });
});

describe('the reconciler', () => {
  it('posts the card and schedules the expiry of a pending request that has neither', async () => {
    // What a create followed by a failed announce leaves behind (Redis failed after the create).
    const call: ServiceCall = {
      kind: 'transfer',
      body: { wallet_id: 'wal_ops_7f3a', amount: 27, receiver: RECEIVER, asset: 'base:usdc' },
    };
    const store = h.rampart.deps.store;
    const id = await createSealed(store, call, {
      display: { walletAlias: 'ops', amountText: '27.00', assetCode: 'USDC', chain: 'base' },
      requester: PEOPLE.requester,
      reason: 'orphaned by a stall',
      createdAt: Date.now() - 120_000,
      rule: 'one approval',
    });
    expect(cardFor(h.fake, id)).toBeUndefined();
    await h.rampart.workers?.reconcileNow();
    await expectCardAndExpiry(id);
    const job = await h.rampart.deps.queues.expire.getJob(`expire-${id}`);
    expect(job?.opts.delay).toBeGreaterThan(86_000_000);
  });
});
