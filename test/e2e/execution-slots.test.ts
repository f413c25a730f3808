/**
 * A worker process runs four service calls at a time (src/adapters/jobs/handlers/execute.ts
 * EXECUTION_SLOTS), whether a wake or a job started them (src/adapters/jobs/slots.ts): while four
 * calls hang, a fifth approved request waits queued, and starts when one of them ends.
 */
import { describe, expect, it } from 'vitest';
import { tryJobId } from '../../src/domain/approval.js';
import { eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('exec-slots', { SERVICE_RESPONSE_TIMEOUT: '4s' });

describe('execution slots of a worker process', () => {
  it('four calls at a time: a fifth approved request waits queued until one ends', async () => {
    const amounts = [21.01, 21.02, 21.03, 21.04, 21.05];
    const ids: string[] = [];
    for (const a of amounts) ids.push((await flow.postTransfer(h, a, 'for execution slots')).id);
    h.sandbox.faults.hangAfterApply('/transfer', amounts.length);
    await Promise.all(ids.map((id) => flow.click(h, PEOPLE.approver1, id, 'request_approve')));

    // Read in one probe, so a hung call's time-out cannot fall between what is compared.
    const seen = await eventually(
      async () => {
        const states = await Promise.all(ids.map(async (id) => (await h.rampart.deps.store.get(id))?.state));
        const fifth = ids[states.indexOf('approved')];
        if (states.filter((s) => s === 'executing').length !== 4 || !fifth) return undefined;
        // The quorum's look a second on gave the fifth a job too: a Worker holds it, waiting for
        // a slot, as the runner holds its wake.
        const job = await h.rampart.deps.queues.execute.getJob(tryJobId(`${fifth}.1`, 1));
        if ((await job?.getState()) !== 'active') return undefined;
        return {
          calls: flow.serviceCalls(h, '/transfer').length,
          state: (await h.rampart.deps.store.get(fifth))?.state,
        };
      },
      5_000,
      'four calls in flight and the fifth held by a Worker',
    );
    expect(seen).toEqual({ calls: 4, state: 'approved' });

    // Each hung call ends "outcome unknown" at the time-out; the fifth then runs, once.
    for (const id of ids) await flow.waitForState(h, id, 'unknown');
    await flow.quiescent(h);
    const calls = flow.serviceCalls(h, '/transfer').map((c) => (c.body as { amount: number }).amount);
    expect(calls.sort((a, b) => a - b)).toEqual(amounts);
  });
});
