/**
 * The kill switch through signed Slack requests: approved requests hold while frozen
 * (no service call, state unchanged), in a second worker process and across a restart; Approve
 * is refused; unfreeze needs two approvers; release runs each held request once, cancel none.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import type { Running } from '../../src/rampart.js';
import { APPROVALS, blocksText, envFor, eventually, PEOPLE } from '../support/harness.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let child: ChildProcess | undefined;
let worker: Running | undefined;
const WORKER = { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 300, freezeRecheckMs: 300 };

const h = useHarness('freeze', {}, { rampart: { worker: WORKER } });
afterAll(() => {
  child?.kill('SIGKILL');
});

const callsFor = (amount: number) =>
  flow.serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);
const store = () => h.rampart.deps.store;
const unfreezeCard = () => flow.unfreezeCard(h);
const clickUnfreeze = (user: string, action: 'unfreeze_release' | 'unfreeze_cancel') => {
  const card = unfreezeCard();
  if (!card) throw new Error('no unfreeze card');
  return h.driver.click(user, { action_id: action, message: card, channel: APPROVALS });
};
const frozen = async () => (await h.rampart.deps.controls.freeze()) !== undefined;

let inProcessWorkers = true;

/** Posts (cards need a worker), then approves with no worker running: approved, not run. */
async function approvedNotRun(...amounts: number[]): Promise<string[]> {
  if (!inProcessWorkers && !worker) worker = await h.startAnother({ ROLE: 'worker' }, { worker: WORKER });
  const ids: string[] = [];
  for (const amount of amounts)
    ids.push(
      (await flow.postRequest(h, 'transfer', `${amount} base:usdc to ${flow.RECEIVER} from ops for held ${amount}`)).id,
    );
  await worker?.close();
  await h.rampart.workers?.close();
  worker = undefined;
  inProcessWorkers = false;
  for (const id of ids) {
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await flow.waitForState(h, id, 'approved');
  }
  return ids;
}

async function freezeNow(reason: string) {
  const before = h.fake.messages(APPROVALS).length;
  await h.driver.command(PEOPLE.approver2, '/freeze', reason, APPROVALS);
  await eventually(() => frozen(), 5000, 'the freeze');
  const announced = await eventually(
    () =>
      h.fake
        .messages(APPROVALS)
        .slice(before)
        .find((m) => m.text.includes('Rampart is frozen')),
    5000,
    'the freeze announcement',
  );
  expect(
    h.fake
      .messages(APPROVALS)
      .slice(before)
      .filter((m) => m.text.includes('Rampart is frozen')),
  ).toHaveLength(1);
  return announced;
}

/** Waits until a worker has looked at the held job at least once after `since` and put it back. */
async function heldAgain(id: string, since: number) {
  await eventually(
    async () => {
      const job = await h.rampart.deps.queues.execute.getJob(`${id}.1-t1`);
      return job && (job.processedOn ?? 0) > since && (await job.getState()) === 'delayed' ? true : undefined;
    },
    10_000,
    `${id} to be held by a worker`,
  );
}

describe('the kill switch', () => {
  let held1: string;
  let held2: string;

  it('holds approved requests in a second worker process: no service call, state unchanged; Approve refused', async () => {
    [held1 = '', held2 = ''] = await approvedNotRun(31, 32);
    const announced = await freezeNow('incident 42');
    expect(announced.text).toContain('incident 42');

    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker' });
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-child.ts', JSON.stringify(env)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const since = Date.now();
    await heldAgain(held1, since);
    await heldAgain(held2, since);
    for (const id of [held1, held2]) {
      expect((await store().get(id))?.state).toBe('approved');
      expect((await store().history(id)).map((e) => e.event)).toContain('frozen');
      const job = await h.rampart.deps.queues.execute.getJob(`${id}.1-t1`);
      expect(job?.attemptsMade).toBe(0);
    }
    expect(callsFor(31)).toHaveLength(0);
    expect(callsFor(32)).toHaveLength(0);
    await eventually(
      () => (blocksText(flow.currentCard(h, held1)).includes('Frozen by') ? true : undefined),
      5000,
      'the banner on an open card',
    );
  });

  it('refuses Approve while frozen, with a sentence, and shows the banner in App Home', async () => {
    // The child worker posts cards while the in-process workers are stopped.
    const { id } = await flow.postRequest(h, 'transfer', `34 base:usdc to ${flow.RECEIVER} from ops for while frozen`);
    // A card drawn while frozen offers no Approve; a click from a copy drawn
    // before the freeze (a client not yet refreshed) is still refused with a sentence.
    expect(JSON.stringify(flow.currentCard(h, id).blocks)).not.toContain('request_approve');
    await h.driver.click(PEOPLE.approver1, {
      action_id: 'request_approve',
      block_id: `approval-${id}`,
      value: id,
      message: flow.currentCard(h, id),
      channel: APPROVALS,
    });
    await eventually(
      () => (flow.ephemeralText(h, PEOPLE.approver1).includes(`Rampart is frozen`) ? true : undefined),
      5000,
      'the refusal',
    );
    const record = await store().get(id);
    expect(record?.state).toBe('pending');
    expect(record?.votes).toEqual([]);
    await h.driver.openHome(PEOPLE.approver1);
    const home = await eventually(
      () => {
        const v = h.fake.home(PEOPLE.approver1);
        return v && JSON.stringify(v).includes('Frozen by') ? v : undefined;
      },
      5000,
      'App Home banner',
    );
    expect(JSON.stringify(home)).toContain('incident 42');
  });

  it('still holds after a restart, in a fresh worker', async () => {
    child?.kill('SIGTERM');
    if (child) await once(child, 'exit');
    child = undefined;
    const since = Date.now();
    worker = await h.startAnother({ ROLE: 'worker' }, { worker: { ...WORKER, name: 'restarted' } });
    await heldAgain(held1, since);
    expect((await store().get(held1))?.state).toBe('approved');
    expect(callsFor(31)).toHaveLength(0);
  });

  it('needs two different approvers to unfreeze; release runs each held request exactly once', async () => {
    await h.driver.command(PEOPLE.approver1, '/unfreeze', '', APPROVALS);
    const card = await eventually(() => unfreezeCard(), 5000, 'the unfreeze card');
    expect(blocksText(card)).toContain(held1);
    expect(blocksText(card)).toContain(held2);
    await clickUnfreeze(PEOPLE.approver1, 'unfreeze_release');
    await eventually(
      () => (flow.ephemeralText(h, PEOPLE.approver1).includes('another approver must choose') ? true : undefined),
      5000,
      'first choice recorded',
    );
    await clickUnfreeze(PEOPLE.approver1, 'unfreeze_release');
    await clickUnfreeze(PEOPLE.outsider, 'unfreeze_release');
    await eventually(
      () => (flow.ephemeralText(h, PEOPLE.outsider).includes('not an approver') ? true : undefined),
      5000,
      'outsider refused',
    );
    expect(await frozen()).toBe(true);
    await clickUnfreeze(PEOPLE.approver2, 'unfreeze_release');
    await flow.waitForState(h, held1, 'succeeded');
    await flow.waitForState(h, held2, 'succeeded');
    expect(await frozen()).toBe(false);
    await flow.quiescent(h);
    expect(callsFor(31)).toHaveLength(1);
    expect(callsFor(32)).toHaveLength(1);
    expect((await store().history(held1)).map((e) => e.event)).toEqual(
      expect.arrayContaining(['frozen', 'released', 'unfrozen', 'succeeded']),
    );
    expect(blocksText(unfreezeCard())).toContain('Unfrozen');
  });

  it('cancel runs none of what the freeze held, and each card says so', async () => {
    const [id = ''] = await approvedNotRun(35);
    await freezeNow('second incident');
    const since = Date.now();
    worker = await h.startAnother({ ROLE: 'worker' }, { worker: { ...WORKER, name: 'third' } });
    await heldAgain(id, since);
    await h.driver.command(PEOPLE.approver1, '/unfreeze', '', APPROVALS);
    await eventually(() => (blocksText(unfreezeCard()).includes(id) ? true : undefined), 5000, 'new unfreeze card');
    await clickUnfreeze(PEOPLE.approver1, 'unfreeze_cancel');
    await clickUnfreeze(PEOPLE.approver2, 'unfreeze_cancel');
    await flow.waitForState(h, id, 'cancelled');
    // The held requests are cancelled first; the freeze lifts only once none is left approved.
    await eventually(async () => ((await frozen()) ? undefined : true), 5000, 'the freeze to lift');
    await flow.quiescent(h);
    expect(callsFor(35)).toHaveLength(0);
    await eventually(
      () => (blocksText(flow.currentCard(h, id)).includes('Cancelled') ? true : undefined),
      5000,
      'the cancelled card',
    );
  });
});
