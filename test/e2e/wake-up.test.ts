/**
 * The approve path: every approving click sends execution 1's job right behind its vote,
 * before the vote's answer is known. The start script is the authority (DESIGN invariants 1 and
 * 3): a wake-up before the quorum moves nothing, the quorum's runs the call once, and a wake-up
 * that Redis ran before its own vote is made good a second after the quorum, not at the
 * reconciler's next pass.
 */
import { describe, expect, it } from 'vitest';
import { isWakeJob } from '../../src/domain/approval.js';
import type { RequestStore } from '../../src/store/requests.js';
import { APPROVALS, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

/** Requests whose vote is held back until the worker has run their wake-up job (see below). */
const voteAfterWake = new Set<string>();
let startedBeforeVote = 0;

const h = useHarness(
  'wake-up',
  { TWO_APPROVALS_ABOVE: 'USDC=1000,USDT=1000,CNGN=1000000' },
  {
    rampart: {
      // The reconciler stays out of the way: only the web side's look can make good a lost wake-up.
      worker: { reconcileEveryMs: 600_000 },
      decorate: {
        // A vote that reaches Redis after its wake-up job ran: what a NOSCRIPT re-send of the vote
        // script (and not of BullMQ's) would do. The worker's start script sees a pending approval.
        store(store: RequestStore, role) {
          if (role !== 'web') return store;
          const castVote: RequestStore['castVote'] = async (id, ...rest) => {
            if (voteAfterWake.has(id)) {
              await eventually(async () => {
                const jobs = await h.rampart.deps.queues.execute.getJobs(['completed']);
                return jobs.some((j) => isWakeJob(j.id ?? '') && j.data.executionId === `${id}.1`) ? true : undefined;
              });
              startedBeforeVote += 1;
            }
            return store.castVote(id, ...rest);
          };
          return Object.assign(Object.create(store) as RequestStore, { castVote });
        },
      },
    },
  },
);

const amountCalls = (amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('the wake-up job sent with every approving click', () => {
  it('moves nothing before the quorum; the quorum runs the call once; a late click moves nothing more', async () => {
    const { id, card } = await flow.postRequest(
      h,
      'transfer',
      `1500 base:usdc to ${flow.RECEIVER} from ops for two approvers`,
    );
    const stale = structuredClone(card);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(async () => ((await h.rampart.deps.store.get(id))?.votes.length === 1 ? true : undefined));
    await flow.quiescent(h);
    // The first approver's wake-up ran and was refused by the start script: nothing was sent.
    const woken = (await h.rampart.deps.queues.execute.getJobs(['completed'])).filter(
      (j) => isWakeJob(j.id ?? '') && j.data.executionId === `${id}.1`,
    );
    expect(woken).toHaveLength(1);
    expect(woken[0]?.returnvalue).toBe('skipped');
    expect(amountCalls(1500)).toHaveLength(0);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');

    await flow.click(h, PEOPLE.approver2, id, 'request_approve');
    await flow.waitForState(h, id, 'succeeded');
    // A click on a copy of the card from before the outcome (Slack may show a stale message).
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: stale, channel: APPROVALS });
    await eventually(
      () => (flow.ephemeralText(h, PEOPLE.approver1).includes(id) ? true : undefined),
      5_000,
      'late notice',
    );
    await flow.quiescent(h);
    expect(amountCalls(1500)).toHaveLength(1);
    expect((await h.rampart.deps.store.get(id))?.executions[0]?.tries).toBe(1);
  });

  it('a wake-up that ran before its own vote: the approval runs a second after the quorum', async () => {
    const { id } = await flow.postRequest(h, 'transfer', `21 base:usdc to ${flow.RECEIVER} from ops for a late vote`);
    voteAfterWake.add(id);
    const before = startedBeforeVote;
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'approved', 5_000);
    expect(startedBeforeVote).toBe(before + 1);
    expect(amountCalls(21)).toHaveLength(0);
    // The reconciler runs every ten minutes here: only the look after the quorum can queue it.
    await flow.waitForState(h, id, 'succeeded', 5_000);
    await flow.quiescent(h);
    expect(amountCalls(21)).toHaveLength(1);
  });
});
