/**
 * A payment set for a time (the API's run_at) with two worker processes: approved before its
 * time, it reaches the service once, at or after that time, and a worker SIGKILLed while the
 * payment waits changes nothing (its try waits in Redis's delayed set, not in the process). Order
 * and counts are asserted, never a duration.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, newKey, startApi, transfer } from '../api/support.js';
import { APPROVALS, envFor, eventually, type Harness, PEOPLE } from '../support/harness.js';
import { click, serviceCalls, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';
import { spawnWorker, workerReady } from '../support/worker-process.js';

const callsFor = (h: Harness, amount: number) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('a transfer set for a time, two worker processes', () => {
  const h = useHarness('set-time', { ROLE: 'web', API_RATE: 'off' });
  const children: ChildProcess[] = [];
  let api: Api | undefined;
  beforeAll(async () => {
    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker' });
    for (let i = 0; i < 2; i++) {
      const child = spawnWorker(env);
      children.push(child);
      await workerReady(child);
    }
    api = await startApi(h);
  });
  afterAll(async () => {
    await api?.close();
    for (const c of children) c.kill('SIGKILL');
  });

  it('runs once at or after its time; a worker killed while it waits changes nothing', async () => {
    if (!api) throw new Error('no API');
    const { token } = await newKey(api, { limits: { allowNewDestinations: true } });
    // Seconds ahead rather than a desk's minutes: the order of events is what is asserted.
    const runAt = new Date(Date.now() + 8_000);
    const created = await api.call('POST', '/transfers', {
      token,
      idempotencyKey: 'set-time-1',
      body: transfer({ amount: '4242', run_at: runAt.toISOString() }),
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.run_at).toBe(runAt.toISOString());
    const id = String(created.json.id);
    await eventually(() => (h.fake.messages(APPROVALS).some((m) => m.text.includes(id)) ? true : undefined));
    await click(h, PEOPLE.approver1, id, 'request_approve');
    const approved = await waitForState(h, id, 'approved', 5_000);
    expect(approved.runAt).toBe(runAt.getTime());
    // A worker tried it (the quorum's wake; only a start refused `not-yet` leaves a delayed try)
    // and its try waits for its time; then one worker dies.
    await eventually(
      async () => {
        const jobs = await h.rampart.deps.queues.execute.getJobs(['delayed']);
        return jobs.some((j) => j.data.executionId === `${id}.1`) ? true : undefined;
      },
      5_000,
      'the try to wait for its time',
    );
    const killed = children.shift();
    killed?.kill('SIGKILL');
    if (killed) await once(killed, 'exit');
    expect(callsFor(h, 4242)).toHaveLength(0);
    await waitForState(h, id, 'succeeded', 20_000);
    await eventually(async () => {
      const jobs = await h.rampart.deps.queues.execute.getJobs(['active', 'waiting', 'delayed']);
      return jobs.some((j) => j.data.executionId === `${id}.1`) ? undefined : true;
    });
    const calls = callsFor(h, 4242);
    expect(calls).toHaveLength(1);
    expect(Date.parse(calls[0]?.at ?? '')).toBeGreaterThanOrEqual(runAt.getTime());
    expect((await h.rampart.deps.store.get(id))?.executions[0]?.tries).toBe(1);
  });

  it('refuses a time in the past and one beyond SCHEDULE_MAX_AHEAD with a sentence on run_at', async () => {
    if (!api) throw new Error('no API');
    const { token } = await newKey(api, { limits: { allowNewDestinations: true } });
    const post = (runAt: string, key: string) =>
      api?.call('POST', '/transfers', { token, idempotencyKey: key, body: transfer({ amount: '12', run_at: runAt }) });
    const past = await post(new Date(Date.now() - 60_000).toISOString(), 'past');
    expect(past?.status).toBe(422);
    expect(past?.json.errors).toEqual([
      { pointer: '/run_at', detail: expect.stringContaining('That time has passed') },
    ]);
    const far = await post(new Date(Date.now() + 401 * 86_400_000).toISOString(), 'far');
    expect(far?.json.errors).toEqual([{ pointer: '/run_at', detail: expect.stringContaining('SCHEDULE_MAX_AHEAD') }]);
    const garbled = await post('next friday', 'garbled');
    expect(garbled?.json.errors).toEqual([{ pointer: '/run_at', detail: expect.stringContaining('YYYY-MM-DD') }]);
  });
});
