/**
 * Nothing approved is lost, nothing executing runs again (DESIGN invariants 3 and 4): the only
 * worker stops; meanwhile one request is approved by a click (its job waits in Redis), one is
 * approved by a web process that died before it could queue the job, and one was taken by a
 * worker that died mid-call and whose job is gone. When a worker starts again, the first two
 * execute once each and the third ends "outcome unknown" without a call.
 * Then a worker process is killed mid-call: its stalled job alone (the reconciler is kept out of
 * the way) settles the request as unknown, never called again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wakeRunnerOf } from '../../src/domain/approval.js';
import type { Running } from '../../src/rampart.js';
import { envFor, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('restart', { ROLE: 'web' });
let firstWorker: Running;
let child: ChildProcess | undefined;
beforeAll(async () => {
  // The web role never executes anything: while no worker runs, approved work can only wait.
  firstWorker = await h.startAnother(
    { ROLE: 'worker' },
    { worker: { name: 'first-worker', lockDurationMs: 1000, stalledIntervalMs: 500 } },
  );
});
afterAll(async () => {
  child?.kill('SIGKILL');
});

const callsFor = (amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('a worker restart', () => {
  it('runs what was approved while no worker ran, once each, and settles a lost execution as unknown', async () => {
    const post = (amount: number, why: string) =>
      flow.postRequest(h, 'transfer', `${amount} base:usdc to ${flow.RECEIVER} from ops for ${why}`);
    const queued = await post(31, 'approved while the worker was down');
    const unqueued = await post(32, 'approved by a web process that died before queueing');
    const lost = await post(33, 'taken by a worker that died mid-call');
    await flow.quiescent(h);
    await firstWorker.close();

    const { store, queues } = h.rampart.deps;
    expect((await flow.click(h, PEOPLE.approver1, queued.id, 'request_approve')).status).toBe(200);
    await flow.waitForState(h, queued.id, 'approved');
    // The same vote script the click runs, with no job added after it.
    expect(await store.vote(unqueued.id, PEOPLE.approver2)).toBe('approved');
    expect(await store.vote(lost.id, PEOPLE.approver2)).toBe('approved');
    expect((await store.startExecution(lost.id, 'worker-that-died')).token).toBeDefined();
    expect(await queues.execute.getJob(unqueued.id)).toBeUndefined();
    expect(await queues.execute.getJob(lost.id)).toBeUndefined();
    expect(callsFor(31).length + callsFor(32).length + callsFor(33).length).toBe(0);

    const restarted = await h.startAnother(
      { ROLE: 'worker' },
      { worker: { name: 'restarted', lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 300 } },
    );
    await flow.waitForState(h, queued.id, 'succeeded');
    await flow.waitForState(h, unqueued.id, 'succeeded');
    await flow.waitForState(h, lost.id, 'unknown');
    const reply = await eventually(
      () => flow.threadOf(h, lost.id).find((m) => m.text.includes('outcome unknown')),
      10_000,
      'the unknown reply',
    );
    expect(reply.text).toContain('Do not request it again');
    await restarted.workers?.reconcileNow();
    await flow.quiescent(h);
    await restarted.close();
    expect(callsFor(31)).toHaveLength(1);
    expect(callsFor(32)).toHaveLength(1);
    expect(callsFor(33)).toHaveLength(0);
    expect((await store.history(lost.id)).map((e) => e.event)).toEqual([
      'requested',
      'approval',
      'approved',
      'queued',
      'executing',
      'unknown',
    ]);
  });
});

describe('a worker killed mid-call', () => {
  it('leaves a stalled job that settles the request as unknown, without the reconciler, never called again', async () => {
    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker', SERVICE_RESPONSE_TIMEOUT: '60s' });
    // It takes no wakes: the approval reaches it as a job (the voter's look a second after the
    // quorum), so what it leaves behind is a stalled job (a wake's run is in wake-runner.test.ts).
    const options = JSON.stringify({ takesWakes: false });
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-child.ts', JSON.stringify(env), options], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `34 base:usdc to ${flow.RECEIVER} from ops for a killed worker`,
    );
    h.sandbox.faults.hangAfterApply('/transfer');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    // The wake no runner took would have the next worker look at it: only the job is left.
    expect(await flow.wakes(h, true)).toEqual([id]);
    await eventually(() => (callsFor(34).length === 1 ? true : undefined), 10_000, 'the call to reach the service');
    child.kill('SIGKILL');
    await once(child, 'exit');
    child = undefined;

    // Its reconciler runs at start, while the dead worker's job still counts as active, and not
    // again within this test: only the stalled job's handler can settle the request.
    const after = await h.startAnother(
      { ROLE: 'worker' },
      { worker: { name: 'after-kill', lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 600_000 } },
    );
    await flow.expectUnknownSaid(h, id);
    await flow.quiescent(h);
    await after.close();
    expect(callsFor(34)).toHaveLength(1);
  });
});

describe('a worker killed mid-call on a wake’s run', () => {
  it('leaves no job: once its lease runs out, the reconciler settles the request as unknown, never called again', async () => {
    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker', SERVICE_RESPONSE_TIMEOUT: '60s' });
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-child.ts', JSON.stringify(env)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const { id } = await flow.postRequest(h, 'transfer', `35 base:usdc to ${flow.RECEIVER} from ops for a killed run`);
    h.sandbox.faults.hangAfterApply('/transfer');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(() => (callsFor(35).length === 1 ? true : undefined), 10_000, 'the call to reach the service');
    // The child's wake runner took it (no other worker runs now).
    expect(wakeRunnerOf((await h.rampart.deps.store.execution(`${id}.1`))?.job ?? '')).toBeDefined();
    child.kill('SIGKILL');
    await once(child, 'exit');
    child = undefined;

    const after = await h.startAnother(
      { ROLE: 'worker' },
      { worker: { name: 'after-kill-run', reconcileEveryMs: 300 } },
    );
    await flow.expectUnknownSaid(h, id);
    await flow.quiescent(h);
    await after.close();
    expect(callsFor(35)).toHaveLength(1);
  });
});
