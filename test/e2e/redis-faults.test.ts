/**
 * Redis faults survived on a private redis-server with AOF on: while it is
 * killed (SIGKILL) or stalled (SIGSTOP) every Slack request is acked in time with one
 * sentence and /healthz says 503; after the restart nothing pending or approved is lost,
 * pending requests can be approved, and each runs once with one thread reply.
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_NO_ANSWER_TEXT, REDIS_UNREACHABLE_TEXT } from '../../src/store/redis-errors.js';
import { eventually, expectHealthyRun, type Harness, PEOPLE } from '../support/harness.js';
import { bringBack, usePrivateRedis } from '../support/redis-servers.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const callsFor = (h: Harness, amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

const health = async (h: Harness) => (await request(`http://127.0.0.1:${h.rampart.port}/healthz`)).statusCode;

const oneReply = (h: Harness, id: string) => flow.threadOf(h, id).filter((m) => m.text.includes('succeeded'));

describe('a Redis with AOF killed and restarted mid-flow', () => {
  const server = usePrivateRedis({ appendonly: true });
  // A vote that reached a stalled Redis late is queued by the reconciler: run it often here.
  const h = useHarness('redis-faults', () => ({ REDIS_URL: server.url }), {
    rampart: { worker: { reconcileEveryMs: 300 } },
  });
  afterAll(() => bringBack(server)); // a failed test may leave it down; the harness cleans up there

  it('answers every request in time during the outage, loses nothing, and resumes without a restart', async () => {
    const pending1 = await flow.postRequest(h, 'transfer', `31 base:usdc to ${flow.RECEIVER} from ops for outage one`);
    const pending2 = await flow.postRequest(h, 'transfer', `32 base:usdc to ${flow.RECEIVER} from ops for outage two`);
    const inFlight = await flow.postRequest(
      h,
      'transfer',
      `33 base:usdc to ${flow.RECEIVER} from ops for outage three`,
    );
    // The third is approved and its service call is still out when Redis dies.
    h.sandbox.faults.latency(1500);
    await flow.click(h, PEOPLE.approver1, inFlight.id, 'request_approve');
    await flow.waitForState(h, inFlight.id, 'executing');
    expect(await health(h)).toBe(200);
    // A Deny form opened before the outage and submitted during it.
    await flow.click(h, PEOPLE.approver2, pending2.id, 'request_deny');
    const denyForm = await eventually(
      () => h.fake.views(PEOPLE.approver2).find((v) => v.callback_id === 'deny_modal'),
      5000,
      'deny modal',
    );

    await server.kill();
    const denied = await h.driver.submitView(PEOPLE.approver2, denyForm, { reason: 'wrong vendor address' });
    // Said on the form, which stays open with what was typed.
    expect(denied.body).toEqual({ response_action: 'errors', errors: { reason: REDIS_UNREACHABLE_TEXT } });
    const acks = [
      denied,
      await flow.click(h, PEOPLE.approver1, pending1.id, 'request_approve'),
      await h.driver.command(PEOPLE.approver2, '/beneficiary', 'list'),
    ];
    for (const ack of acks) {
      expect(ack.status).toBe(200);
      expect(ack.ackMs).toBeLessThan(3000);
    }
    expect(await health(h)).toBe(503);
    await eventually(
      () => flow.ephemeralText(h, PEOPLE.approver1).includes(REDIS_UNREACHABLE_TEXT),
      5000,
      'click answer',
    );
    await eventually(
      () => flow.ephemeralText(h, PEOPLE.approver2).includes(REDIS_UNREACHABLE_TEXT),
      5000,
      'list answer',
    );
    h.sandbox.faults.latency(0);

    await server.restart();
    await eventually(async () => (await health(h)) === 200, 15_000, '/healthz 200 after the restart');
    // Nothing pending was lost, and the click during the outage did not count.
    for (const { id } of [pending1, pending2]) {
      const record = await h.rampart.deps.store.get(id);
      expect(record?.state).toBe('pending');
      expect(record?.votes).toEqual([]);
    }
    // The call that was out during the outage is recorded once it answers, by the patient worker.
    await flow.waitForState(h, inFlight.id, 'succeeded', 20_000);

    for (const { id } of [pending1, pending2]) await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    for (const { id } of [pending1, pending2]) await flow.waitForState(h, id, 'succeeded');
    for (const { id } of [pending1, pending2, inFlight])
      await eventually(() => oneReply(h, id).length === 1, 10_000, `${id} reply`);
    await flow.quiescent(h); // a wrong second run or reply would show before this returns
    for (const amount of [31, 32, 33]) expect(callsFor(h, amount)).toHaveLength(1);
    for (const { id } of [pending1, pending2, inFlight]) expect(oneReply(h, id)).toHaveLength(1);
    expectHealthyRun(h);
  });

  it('a stalled Redis (SIGSTOP) still gets every click acked in time, honestly worded, and /healthz 503', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `34 base:usdc to ${flow.RECEIVER} from ops for stall`);
    server.pause();
    try {
      const ack = await flow.click(h, PEOPLE.approver1, id, 'request_approve');
      expect(ack.ackMs).toBeLessThan(3000);
      expect(await health(h)).toBe(503);
      await eventually(() => flow.ephemeralText(h, PEOPLE.approver1).includes(REDIS_NO_ANSWER_TEXT), 5000, 'answer');
    } finally {
      server.resume();
    }
    await eventually(async () => (await health(h)) === 200, 10_000, '/healthz 200 after the stall');
    // The vote may have reached Redis before it stalled: the request then goes ahead, exactly once.
    const record = await h.rampart.deps.store.get(id);
    if (record?.state === 'pending') await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded', 20_000);
    await eventually(() => oneReply(h, id).length === 1, 10_000, 'reply');
    expect(callsFor(h, 34)).toHaveLength(1);
    expectHealthyRun(h);
  });
});
