/**
 * The cancel window (DELAY, DELAY_ABOVE) through signed Slack requests: an approval that gets the
 * window reaches the service only after its runAt, once, whatever makes the start try meanwhile
 * (the last vote's wake-up, the look after the quorum, the reconciler, a freeze and its release);
 * one under the threshold runs at once. The start script compares runAt with Redis TIME, so a
 * process whose clock runs an hour ahead starts nothing early either. Each test asserts order
 * (the call's arrival against runAt) and counts, never a duration.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../src/domain/request.js';
import { APPROVALS, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { click, postRequest, quiescent, RECEIVER, serviceCalls, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

// Seconds, not the 30 s of a desk's setting: the order of events is what is asserted.
const TIME_ENV = { DELAY: '3s', DELAY_ABOVE: 'USDC=1000' };
// The reconciler passes many times inside every window.
const WORKER = { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 200, freezeRecheckMs: 200 };

const callsFor = (h: Harness, amount: number) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

/** Approved, with its runAt; then at least one try refused 'not-yet' and waiting in the delayed set. */
async function approvedAndWaiting(h: Harness, amount: number, note: string): Promise<RequestRecord> {
  const { id } = await postRequest(h, 'transfer', `${amount} base:usdc to ${RECEIVER} from ops for ${note}`);
  await click(h, PEOPLE.approver1, id, 'request_approve');
  const approved = await waitForState(h, id, 'approved', 5_000);
  await eventually(
    async () => {
      const jobs = await h.rampart.deps.queues.execute.getJobs(['delayed']);
      return jobs.some((j) => j.data.executionId === `${id}.1`) ? true : undefined;
    },
    5_000,
    `${id}'s try to wait for its runAt`,
  );
  return approved;
}

/** Ran once, and not before its runAt (the sandbox stamps each call's arrival). */
async function ranOnceAfterRunAt(h: Harness, record: RequestRecord, amount: number): Promise<void> {
  const id = record.frozen.id;
  await waitForState(h, id, 'succeeded', 15_000);
  await quiescent(h);
  const calls = callsFor(h, amount);
  expect(calls).toHaveLength(1);
  expect(record.runAt).toBeDefined();
  expect(Date.parse(calls[0]?.at ?? '')).toBeGreaterThanOrEqual(record.runAt ?? Number.POSITIVE_INFINITY);
  expect((await h.rampart.deps.store.get(id))?.executions[0]?.tries).toBe(1);
}

describe('the cancel window', () => {
  const h = useHarness('time', TIME_ENV, { rampart: { worker: WORKER } });

  it('5,000 USDC above DELAY_ABOVE reaches the service once, after runAt = quorum + DELAY on Redis time', async () => {
    const record = await approvedAndWaiting(h, 5000, 'a delayed payment');
    expect(record.frozen.timing).toEqual({ delayMs: 3000 });
    expect((record.runAt ?? 0) - (record.decidedAt ?? 0)).toBe(3000);
    // The wake-up and the look after the quorum both tried; neither reached the service.
    expect(callsFor(h, 5000)).toHaveLength(0);
    await ranOnceAfterRunAt(h, record, 5000);
  });

  it('100 USDC under DELAY_ABOVE runs at once, without a runAt', async () => {
    const { id } = await postRequest(h, 'transfer', `100 base:usdc to ${RECEIVER} from ops for an undelayed one`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    const done = await waitForState(h, id, 'succeeded', 10_000);
    expect(done.frozen.timing).toBeUndefined();
    expect(done.runAt).toBeUndefined();
    expect(callsFor(h, 100)).toHaveLength(1);
  });

  it('a freeze and an unfreeze-release inside the window: nothing before runAt, then once', async () => {
    const record = await approvedAndWaiting(h, 5001, 'a window across a freeze');
    await h.driver.command(PEOPLE.approver2, '/freeze', 'checking a wallet', APPROVALS);
    await eventually(async () => ((await h.rampart.deps.controls.freeze()) ? true : undefined), 5_000, 'the freeze');
    await h.driver.command(PEOPLE.approver1, '/unfreeze', '', APPROVALS);
    const card = await eventually(
      () =>
        h.fake
          .messages(APPROVALS)
          .filter((m) => m.text === 'Unfreeze Rampart')
          .at(-1),
      5_000,
      'the unfreeze card',
    );
    for (const user of [PEOPLE.approver1, PEOPLE.approver2])
      await h.driver.click(user, { action_id: 'unfreeze_release', message: card, channel: APPROVALS });
    await eventually(async () => ((await h.rampart.deps.controls.freeze()) ? undefined : true), 5_000, 'the lift');
    // Waiting is not held: the release neither promoted nor cancelled it.
    expect(callsFor(h, 5001)).toHaveLength(0);
    expect((await h.rampart.deps.store.get(record.frozen.id))?.approvalState).toBe('approved');
    await ranOnceAfterRunAt(h, record, 5001);
  });
});

describe('a process whose clock runs an hour ahead', () => {
  const ahead = () => Date.now() + 3_600_000;
  const h = useHarness('time-clock', TIME_ENV, { rampart: { worker: WORKER, infra: { clock: ahead } } });

  it('starts nothing before runAt: the start compares with Redis TIME, not the worker clock', async () => {
    const record = await approvedAndWaiting(h, 5002, 'a fast clock');
    // decidedAt and runAt are Redis time, not the web host's clock an hour ahead.
    expect(record.decidedAt ?? 0).toBeLessThan(ahead() - 1_800_000);
    await ranOnceAfterRunAt(h, record, 5002);
  });
});
