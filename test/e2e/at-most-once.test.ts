/**
 * At most once, always (DESIGN invariant 3): concurrent clicks, two workers, a service 500, a
 * call that applies and never answers, a worker killed mid-call. Each ends with exactly one
 * call to the service, and ambiguity ends in "outcome unknown", loudly.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, envFor, eventually, type Harness, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';
import { spawnWorker, workerReady } from '../support/worker-process.js';

const callsFor = (h: Harness, amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('with one web+worker process and a second worker', () => {
  const h = useHarness('once', { SERVICE_RESPONSE_TIMEOUT: '700ms' });
  beforeAll(async () => {
    await h.startAnother({ ROLE: 'worker' }, { worker: { name: 'second-worker' } });
  });

  it('20 concurrent Approve clicks make exactly one service call', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `11 base:usdc to ${flow.RECEIVER} from ops for concurrency`);
    const clickers = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? PEOPLE.approver1 : PEOPLE.approver2));
    const acks = await Promise.all(clickers.map((u) => flow.click(h, u, id, 'request_approve')));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    await flow.waitForState(h, id, 'succeeded');
    await flow.quiescent(h);
    expect(callsFor(h, 11)).toHaveLength(1);
    const replies = flow.threadOf(h, id).filter((m) => m.text.includes('succeeded'));
    expect(replies).toHaveLength(1);
    const late = h.fake
      .ephemerals(PEOPLE.approver1)
      .concat(h.fake.ephemerals(PEOPLE.approver2))
      .filter((e) => e.text.includes('already approved by'));
    expect(late.length).toBeGreaterThan(0);
  });

  it('two workers on one queue run each of many requests exactly once, even when queued twice', async () => {
    const amounts = [12.01, 12.02, 12.03, 12.04, 12.05, 12.06];
    const ids: string[] = [];
    for (const a of amounts)
      ids.push(
        (await flow.postRequest(h, 'transfer', `${a} base:usdc to ${flow.RECEIVER} from ops for two workers`)).id,
      );
    await Promise.all(ids.map((id) => flow.click(h, PEOPLE.approver1, id, 'request_approve')));
    // A duplicate enqueue (e.g. a reconciler racing a click) must not run anything twice.
    await Promise.all(ids.map((id) => h.rampart.deps.queues.enqueueExecution(id)));
    for (const id of ids) await flow.waitForState(h, id, 'succeeded');
    await Promise.all(ids.map((id) => h.rampart.deps.queues.enqueueExecution(id)));
    await flow.quiescent(h);
    for (const a of amounts) expect(callsFor(h, a)).toHaveLength(1);
  });

  it('a service 500 on transfer ends "outcome unknown" with what to check, and is not called again', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `13 base:usdc to ${flow.RECEIVER} from ops for failure`);
    h.sandbox.faults.failNext('/transfer', 1, { status: 500, body: 'json' });
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'unknown');
    const reply = await flow.threadReply(h, id, 'outcome unknown', 10_000, 'unknown reply');
    // A 5xx may come after the service (or a gateway) acted: never "failed", never "try again".
    expect(reply.text).toContain('HTTP 500');
    expect(reply.text).toContain("Check the wallet's balances");
    expect(reply.text).not.toMatch(/try again|new request|resubmit/i);
    await h.rampart.workers?.reconcileNow();
    await flow.quiescent(h);
    expect(callsFor(h, 13)).toHaveLength(1);
    expect(blocksText(flow.currentCard(h, id))).toContain('OUTCOME UNKNOWN');
  });

  it('a call that applies and never answers ends "outcome unknown", loudly, never called twice', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `14 base:usdc to ${flow.RECEIVER} from ops for hang`);
    h.sandbox.faults.hangAfterApply('/transfer');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'unknown');
    const reply = await flow.threadReply(h, id, 'outcome unknown', 5000, 'unknown reply');
    expect(reply.text).toContain('Do not request it again');
    await h.rampart.workers?.reconcileNow();
    await flow.quiescent(h);
    expect(callsFor(h, 14)).toHaveLength(1);
    expect(blocksText(flow.currentCard(h, id))).toContain('OUTCOME UNKNOWN');
  });

  it('keeps a result that Slack rate-limits and posts it once when allowed', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `15 base:usdc to ${flow.RECEIVER} from ops for rate limit`);
    h.fake.rateLimitNext('chat.postMessage', 2, 1);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    await flow.threadReply(h, id, 'succeeded', 8000, 'reply after rate limit');
    await flow.quiescent(h);
    expect(flow.threadOf(h, id).filter((m) => m.text.includes('succeeded'))).toHaveLength(1);
  });
});

describe('a worker process killed while executing', () => {
  const h = useHarness('killed', { ROLE: 'web' });
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
  });

  it('is never run again after restart: the request becomes unknown and the thread says so', async () => {
    // The web role posts requests; the only worker is a separate process (it posts the card too).
    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker', SERVICE_RESPONSE_TIMEOUT: '60s' });
    child = spawnWorker(env);
    await workerReady(child);
    const { id } = await flow.postRequest(h, 'transfer', `16 base:usdc to ${flow.RECEIVER} from ops for crash`);
    h.sandbox.faults.hangAfterApply('/transfer');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'executing');
    await eventually(() => (callsFor(h, 16).length === 1 ? true : undefined), 10_000, 'the call to reach the service');
    child.kill('SIGKILL');
    await once(child, 'exit');
    child = undefined;

    await h.startAnother(
      { ROLE: 'worker' },
      { worker: { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 300, name: 'restarted' } },
    );
    await flow.waitForState(h, id, 'unknown', 10_000);
    const reply = await eventually(
      () => h.fake.thread(APPROVALS, flow.currentCard(h, id).ts).find((m) => m.text.includes('outcome unknown')),
      5000,
      'unknown reply',
    );
    expect(reply.text).toContain("Check the wallet's balances");
    await flow.quiescent(h);
    expect(callsFor(h, 16)).toHaveLength(1);
  });
});
