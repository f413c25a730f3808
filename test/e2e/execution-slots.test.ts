/**
 * A worker process runs four service calls at a time (src/adapters/jobs/handlers/execute.ts):
 * while four calls hang, a fifth approved request waits queued, and starts when one of them ends.
 */
import { describe, expect, it } from 'vitest';
import { eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('exec-slots', { SERVICE_RESPONSE_TIMEOUT: '2s' });

describe('execution slots of a worker process', () => {
  it('four calls at a time: a fifth approved request waits queued until one ends', async () => {
    const amounts = [21.01, 21.02, 21.03, 21.04, 21.05];
    const ids: string[] = [];
    for (const a of amounts) ids.push((await flow.postTransfer(h, a, 'for execution slots')).id);
    h.sandbox.faults.hangAfterApply('/transfer', amounts.length);
    await Promise.all(ids.map((id) => flow.click(h, PEOPLE.approver1, id, 'request_approve')));

    // Read in one probe, so a hung call's time-out cannot fall between what is compared.
    const states = await eventually(
      async () => {
        const { active } = await h.rampart.deps.queues.execute.getJobCounts('active');
        if (flow.serviceCalls(h, '/transfer').length !== 4 || active !== 4) return undefined;
        return Promise.all(ids.map(async (id) => (await h.rampart.deps.store.get(id))?.state));
      },
      5_000,
      'four calls in flight',
    );
    // Four workers are busy with a call each: the fifth execution has not started.
    expect(states.filter((s) => s === 'executing')).toHaveLength(4);
    expect(states.filter((s) => s === 'approved')).toHaveLength(1);

    // Each hung call ends "outcome unknown" at the time-out; the fifth then runs, once.
    for (const id of ids) await flow.waitForState(h, id, 'unknown');
    await flow.quiescent(h);
    const calls = flow.serviceCalls(h, '/transfer').map((c) => (c.body as { amount: number }).amount);
    expect(calls.sort((a, b) => a - b)).toEqual(amounts);
  });
});
