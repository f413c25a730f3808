/**
 * The cancel window (DELAY, DELAY_ABOVE) through signed Slack requests: an approval that gets the
 * window reaches the service only after its runAt, once, whatever makes the start try meanwhile
 * (the last vote's wake-up, the look after the quorum, the reconciler, a freeze and its release);
 * one under the threshold runs at once. The start script compares runAt with Redis TIME, so a
 * process whose clock runs an hour ahead starts nothing early either. Each test asserts order
 * (the call's arrival against runAt) and counts, never a duration.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { CANCEL_WAITING_ACTION } from '../../src/adapters/slack/blocks/card.js';
import type { RequestRecord } from '../../src/domain/request.js';
import { TOTAL_FIELD } from '../../src/store/velocity-lua.js';
import { addresses, openBatchModal, transfersCsv } from '../support/batches.js';
import { APPROVALS, blocksText, eventually, type Harness, PEOPLE, REDIS_URL } from '../support/harness.js';
import {
  click,
  currentCard,
  ephemeralText,
  postRequest,
  quiescent,
  RECEIVER,
  serviceCalls,
  submitRequest,
  threadOf,
  unfreezeCard,
  waitForState,
} from '../support/requests.js';
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
  await eventually(
    () => (blocksText(currentCard(h, id)).includes('Approved · runs at') ? true : undefined),
    5_000,
    `${id}'s card to say when it runs`,
  );
  return approved;
}

/** No job of this execution is left to run (others may still wait for their own runAt). */
async function settled(h: Harness, id: string): Promise<void> {
  await eventually(
    async () => {
      const jobs = await h.rampart.deps.queues.execute.getJobs(['active', 'waiting', 'prioritized']);
      const state = (await h.rampart.deps.store.get(id))?.state;
      return state !== 'executing' && !jobs.some((j) => j.data.executionId === `${id}.1`) ? true : undefined;
    },
    10_000,
    `${id} to settle`,
  );
}

/** Ran once, and not before its runAt (the sandbox stamps each call's arrival). */
async function ranOnceAfterRunAt(h: Harness, record: RequestRecord, amount: number): Promise<void> {
  const id = record.sealed.id;
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
    expect(record.sealed.timing).toEqual({ delayMs: 3000 });
    expect((record.runAt ?? 0) - (record.decidedAt ?? 0)).toBe(3000);
    // The wake-up and the look after the quorum both tried; neither reached the service.
    expect(callsFor(h, 5000)).toHaveLength(0);
    await ranOnceAfterRunAt(h, record, 5000);
  });

  it('100 USDC under DELAY_ABOVE runs at once, without a runAt', async () => {
    const { id } = await postRequest(h, 'transfer', `100 base:usdc to ${RECEIVER} from ops for an undelayed one`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    const done = await waitForState(h, id, 'succeeded', 10_000);
    expect(done.sealed.timing).toBeUndefined();
    expect(done.runAt).toBeUndefined();
    expect(callsFor(h, 100)).toHaveLength(1);
  });

  it('a freeze and an unfreeze-release inside the window: nothing before runAt, then once', async () => {
    const record = await approvedAndWaiting(h, 5001, 'a window across a freeze');
    await h.driver.command(PEOPLE.approver2, '/freeze', 'checking a wallet', APPROVALS);
    await eventually(async () => ((await h.rampart.deps.controls.freeze()) ? true : undefined), 5_000, 'the freeze');
    await h.driver.command(PEOPLE.approver1, '/unfreeze', '', APPROVALS);
    const card = await eventually(() => unfreezeCard(h), 5_000, 'the unfreeze card');
    for (const user of [PEOPLE.approver1, PEOPLE.approver2])
      await h.driver.click(user, { action_id: 'unfreeze_release', message: card, channel: APPROVALS });
    await eventually(async () => ((await h.rampart.deps.controls.freeze()) ? undefined : true), 5_000, 'the lift');
    // Waiting is not held: the release neither promoted nor cancelled it.
    expect(callsFor(h, 5001)).toHaveLength(0);
    expect((await h.rampart.deps.store.get(record.sealed.id))?.approvalState).toBe('approved');
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

describe('cancel inside the window', () => {
  const h = useHarness(
    'time-cancel',
    { ...TIME_ENV, DELAY: '1h', VELOCITY_LIMITS: 'ops:USDC=1000000/24h' },
    { rampart: { worker: WORKER } },
  );

  it('any one approver cancels from the card: never sent, velocity released in the same step, the thread says who', async () => {
    const record = await approvedAndWaiting(h, 5003, 'a payment to stop');
    const id = record.sealed.id;
    const card = currentCard(h, id);
    expect(blocksText(card)).toContain('Approved · runs at');
    const cancelButton = JSON.stringify(card.blocks).includes(CANCEL_WAITING_ACTION);
    expect(cancelButton).toBe(true);
    const ledger = h.rampart.deps.controls.ledgerKey({ walletId: 'wal_ops_7f3a', code: 'USDC' });
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.zscore(ledger, id)).toBe('inf');
      // An approver who did not vote: one is enough.
      await h.driver.click(PEOPLE.approver2, {
        action_id: CANCEL_WAITING_ACTION,
        value: id,
        message: card,
        channel: APPROVALS,
      });
      const done = await waitForState(h, id, 'cancelled', 5_000);
      expect(done.decidedBy).toBe(PEOPLE.approver2);
      expect(await redis.zscore(ledger, id)).toBeNull();
      expect(await redis.hget(`${ledger}:amounts`, id)).toBeNull();
      // The running total moved with the entry: it still equals the sum of what is left.
      const held = await redis.hgetall(`${ledger}:amounts`);
      const left = Object.entries(held)
        .filter(([k]) => !k.startsWith('#'))
        .reduce((sum, [, v]) => sum + BigInt(v), 0n);
      expect(BigInt(held[TOTAL_FIELD] ?? '0')).toBe(left);
    } finally {
      await redis.quit();
    }
    await eventually(
      () => (threadOf(h, id).some((m) => blocksText(m).includes(PEOPLE.approver2)) ? true : undefined),
      5_000,
      'the thread to say who cancelled',
    );
    expect(ephemeralText(h, PEOPLE.approver2)).toContain(`You cancelled ${id}; nothing was sent.`);
    await settled(h, id);
    expect(callsFor(h, 5003)).toHaveLength(0);
  });

  it('someone neither approver nor requester is refused with a sentence; nothing changes', async () => {
    const record = await approvedAndWaiting(h, 5004, 'an outsider’s click');
    const id = record.sealed.id;
    await h.driver.click(PEOPLE.outsider, {
      action_id: CANCEL_WAITING_ACTION,
      value: id,
      message: currentCard(h, id),
      channel: APPROVALS,
    });
    await eventually(
      () =>
        ephemeralText(h, PEOPLE.outsider).includes(`Only an approver or the requester can cancel ${id}`)
          ? true
          : undefined,
      5_000,
      'the refusal',
    );
    expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('approved');
    // The requester may: the last click on the same card.
    await h.driver.click(PEOPLE.requester, {
      action_id: CANCEL_WAITING_ACTION,
      value: id,
      message: currentCard(h, id),
      channel: APPROVALS,
    });
    await waitForState(h, id, 'cancelled', 5_000);
  });

  it('a cancel that loses the race to the start is told "already started"; the payment ran once', async () => {
    const record = await approvedAndWaiting(h, 5005, 'a late cancel');
    const id = record.sealed.id;
    const stale = structuredClone(currentCard(h, id));
    // The window ends now (Redis time), and the waiting try is woken.
    const redis = new Redis(REDIS_URL);
    try {
      await redis.hset(h.rampart.deps.store.keys.approval(id), 'runAt', '1');
    } finally {
      await redis.quit();
    }
    for (const job of await h.rampart.deps.queues.execute.getJobs(['delayed']))
      if (job.data.executionId === `${id}.1`) await job.promote();
    await waitForState(h, id, 'succeeded', 10_000);
    await h.driver.click(PEOPLE.approver2, {
      action_id: CANCEL_WAITING_ACTION,
      value: id,
      message: stale,
      channel: APPROVALS,
    });
    await eventually(
      () => (ephemeralText(h, PEOPLE.approver2).includes(`${id} already started`) ? true : undefined),
      5_000,
      'already started',
    );
    await settled(h, id);
    expect(callsFor(h, 5005)).toHaveLength(1);
  });
});

describe('When on the transfer form', () => {
  const h = useHarness('time-when', { SCHEDULE_ZONE: 'Africa/Lagos' }, { rampart: { worker: WORKER } });
  const pad = (n: number) => String(n).padStart(2, '0');
  /** A wall-clock time in Africa/Lagos (UTC+1, no daylight saving), as a person types it. */
  const lagos = (ms: number) => {
    const d = new Date(ms + 3_600_000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  };

  it('refuses a time in the past and a set time with "entire balance", each on the When field', async () => {
    const past = await submitRequest(h, 'transfer', `7 base:usdc to ${RECEIVER} from ops for a past time`, {
      when: lagos(Date.now() - 3_600_000),
    });
    expect(past.body).toMatchObject({
      response_action: 'errors',
      errors: { when: expect.stringContaining('That time has passed') },
    });
    const entire = await submitRequest(h, 'transfer', `base:usdc to ${RECEIVER} from ops for all of it`, {
      when: lagos(Date.now() + 86_400_000),
      entire: ['entire'],
    });
    expect(entire.body).toMatchObject({
      response_action: 'errors',
      errors: { when: expect.stringContaining('exact amount') },
    });
  });

  it('a payment set for tomorrow waits after its approval, its card says when in the zone, App Home lists it with Cancel', async () => {
    const at = Math.floor((Date.now() + 86_400_000) / 60_000) * 60_000;
    const { id } = await postRequest(h, 'transfer', `8 base:usdc to ${RECEIVER} from ops for tomorrow`, {
      when: lagos(at),
    });
    expect(blocksText(currentCard(h, id))).toContain(`runs ${lagos(at)} Africa/Lagos`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    const approved = await waitForState(h, id, 'approved', 5_000);
    expect(approved.runAt).toBe(at);
    await eventually(
      () =>
        blocksText(currentCard(h, id)).includes(`Approved · runs at ${lagos(at)} Africa/Lagos`) ? true : undefined,
      5_000,
      'the waiting card',
    );
    expect(callsFor(h, 8)).toHaveLength(0);
    // App Home lists it under "Coming up" with its Cancel; the requester stops it from there.
    const before = h.fake.home(PEOPLE.requester);
    await h.driver.openHome(PEOPLE.requester);
    const home = await eventually(
      () => {
        const v = h.fake.home(PEOPLE.requester);
        return v && v !== before && blocksText({ blocks: v.blocks }).includes('Coming up') ? v : undefined;
      },
      10_000,
      'App Home with Coming up',
    );
    expect(blocksText({ blocks: home.blocks })).toContain(id);
    await h.driver.click(PEOPLE.requester, { action_id: CANCEL_WAITING_ACTION, view: home });
    await waitForState(h, id, 'cancelled', 5_000);
  });

  it('the /batch form takes When too: the batch is sealed with its time and its card says it', async () => {
    const at = Math.floor((Date.now() + 2 * 86_400_000) / 60_000) * 60_000;
    const view = await openBatchModal(h);
    const before = new Set(await h.rampart.deps.store.recentIds(50));
    const file = h.fake.pickFile(
      PEOPLE.requester,
      'friday.csv',
      new TextEncoder().encode(transfersCsv(addresses(2), [3, 4])),
    );
    const r = await h.driver.submitView(PEOPLE.requester, view, {
      kind: 'transfers',
      wallet: 'ops',
      asset: 'base:usdc',
      file,
      reason: 'Friday run',
      when: lagos(at),
    });
    expect((r.body as { response_action?: string } | undefined)?.response_action).not.toBe('errors');
    const id = await eventually(
      async () => (await h.rampart.deps.store.recentIds(50)).find((x) => !before.has(x)),
      10_000,
      'the new batch',
    );
    const record = await h.rampart.deps.store.get(id);
    expect(record?.sealed.timing).toEqual({ notBefore: at, zone: 'Africa/Lagos' });
    await eventually(
      () => {
        const card = h.fake.messages(APPROVALS).find((m) => JSON.stringify(m.blocks).includes(id));
        return card && blocksText(card).includes(`runs ${lagos(at)} Africa/Lagos`) ? true : undefined;
      },
      10_000,
      'the batch card to say when',
    );
  });
});
