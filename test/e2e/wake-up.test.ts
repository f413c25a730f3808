/**
 * The approve path: the vote that reaches the quorum pushes the approval on the wake list in the
 * same script, and a worker's wake runner starts execution 1 straight from it, with no BullMQ
 * job (src/adapters/jobs/wake-runner.ts). The start script stays the authority (DESIGN invariants
 * 1 and 3): before the quorum nothing is pushed; a second wake or a job for a run still going
 * moves nothing, as long as its worker's lease lives; a run that threw is settled unknown; and a
 * wake no runner takes is made good a second after the quorum, not at the reconciler's next pass.
 */
import { describe, expect, it } from 'vitest';
import { tryJobId, wakeRunnerOf } from '../../src/domain/approval.js';
import type { RequestStore } from '../../src/store/requests.js';
import { APPROVALS, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

/** Executions whose first final move throws, as when Redis's reply to it is lost. */
const finishThrows = new Set<string>();

const h = useHarness(
  'wake-up',
  { TWO_APPROVALS_ABOVE: 'USDC=1000,USDT=1000,CNGN=1000000', SERVICE_RESPONSE_TIMEOUT: '20s' },
  {
    rampart: {
      // The lease lives a second unless renewed; the reconciler runs only when a test asks.
      worker: { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 600_000 },
      decorate: {
        store(store: RequestStore, role) {
          if (role !== 'worker') return store;
          const finish: RequestStore['executions']['finish'] = async (id, ...rest) => {
            if (finishThrows.delete(id)) throw new Error('the reply to the final move was lost');
            return store.executions.finish(id, ...rest);
          };
          const executions = Object.assign(Object.create(store.executions) as RequestStore['executions'], { finish });
          return Object.assign(Object.create(store) as RequestStore, { executions });
        },
      },
    },
  },
);

const amountCalls = (amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('the wake the quorum pushes', () => {
  it('pushes nothing before the quorum; the quorum’s wake runs the call once, with no job; a late click moves nothing', async () => {
    const { id, card } = await flow.postRequest(
      h,
      'transfer',
      `1500 base:usdc to ${flow.RECEIVER} from ops for two approvers`,
    );
    const stale = structuredClone(card);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    await flow.quiescent(h);
    expect(await flow.wakes(h)).toEqual([]);
    expect(amountCalls(1500)).toHaveLength(0);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');

    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    // Started by a wake's run, not by a job.
    const execution = await h.rampart.deps.store.execution(`${id}.1`);
    expect(wakeRunnerOf(execution?.job ?? '')).toBeDefined();
    // A click on a copy of the card from before the outcome (Slack may show a stale message).
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: stale, channel: APPROVALS });
    await eventually(
      () => (flow.ephemeralText(h, PEOPLE.approver1).includes(id) ? true : undefined),
      5_000,
      'late notice',
    );
    await flow.quiescent(h);
    expect(amountCalls(1500)).toHaveLength(1);
    expect(execution?.tries).toBe(1);
    expect(await flow.wakes(h)).toEqual([]);
  });

  it('a second wake, a job and the reconciler leave a run that outlives its lease’s first second to its worker', async () => {
    const { deps, workers } = h.rampart;
    // A second worker, its lease a second long too: either may take the wake, and either meets
    // the execution again while the other runs it.
    const again = await h.startAnother(
      { ROLE: 'worker' },
      { worker: { name: 'second', lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 600_000 } },
    );
    try {
      const { id } = await flow.postRequest(h, 'transfer', `21 base:usdc to ${flow.RECEIVER} from ops for a slow call`);
      // The call takes 6 s: past the lease's first second, it lives on only by its renewals.
      h.sandbox.faults.latency(6_000);
      try {
        await flow.click(h, PEOPLE.approver1, id, 'request_approve');
        await flow.waitForState(h, id, 'executing', 5_000);
        await new Promise((r) => setTimeout(r, 1_200));
        // The same execution again, every other way a worker may meet it while its run goes on:
        // a try's job and a second wake, each refused by its start, then both reconcilers.
        await deps.queues.enqueueTry(`${id}.1`, 2);
        await flow.pushWake(h, id);
        await eventually(async () => {
          const job = await deps.queues.execute.getJob(tryJobId(`${id}.1`, 2));
          const done = (await job?.getState()) === 'completed' && (await flow.wakes(h)).length === 0;
          return done ? true : undefined;
        });
        await workers?.reconcileNow();
        await again.workers?.reconcileNow();
        expect((await deps.store.get(id))?.state).toBe('executing');
      } finally {
        h.sandbox.faults.latency(0);
      }
      await flow.waitForState(h, id, 'succeeded', 10_000);
      await flow.quiescent(h);
      expect(amountCalls(21)).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('a run that throws after its start is settled unknown at once, never run again', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `23 base:usdc to ${flow.RECEIVER} from ops for a lost reply`);
    finishThrows.add(`${id}.1`);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    // The reconciler is ten minutes away and the worker's lease lives on: only the runner settles it.
    await flow.expectUnknownSaid(h, id, 5_000);
    await flow.quiescent(h);
    expect(amountCalls(23)).toHaveLength(1);
    expect(h.logs.text).toContain('a run from the wake list failed');
  });
});

describe('a worker that takes no wakes (as one of an earlier version)', () => {
  const old = useHarness('wake-up-none', {}, { rampart: { worker: { takesWakes: false, reconcileEveryMs: 600_000 } } });

  it('runs the approval a second after the quorum, through a job, once', async () => {
    const { id } = await flow.postRequest(
      old,
      'transfer',
      `22 base:usdc to ${flow.RECEIVER} from ops for an old worker`,
    );
    await flow.click(old, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(old, id, 'approved', 5_000);
    expect(await flow.wakes(old)).toEqual([id]);
    // The reconciler runs every ten minutes here: only the look after the quorum can queue it.
    await flow.waitForState(old, id, 'succeeded', 5_000);
    expect((await old.rampart.deps.store.execution(`${id}.1`))?.job).toBe(tryJobId(`${id}.1`, 1));
    await flow.quiescent(old);
    expect(
      flow.serviceCalls(old, '/transfer').filter((c) => (c.body as { amount?: number }).amount === 22),
    ).toHaveLength(1);
    await flow.wakes(old, true);
  });
});
