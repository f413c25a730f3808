/**
 * A series of three runs with two worker processes: the quorum schedules the series' job, each
 * run's job creates that run once (under its run key) and adds the next, and the sandbox receives
 * exactly one call per run, each at or after its sealed time; a run skipped before its time is
 * never sent; the notice before each run is posted once in the series' thread; and a freeze
 * across all three runs sends nothing until the unfreeze wakes the series, which then sends only
 * its latest run. Order and counts are asserted, never durations. The series is sealed here as a
 * submission would seal it, with run dates seconds apart, and approved through the use case the
 * Approve click calls (no Slack request is made, so the harness's ack-time check does not apply).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElement } from '../../devkit/index.js';
import { SERIES_ACTIONS, skipRunValue } from '../../src/adapters/slack/blocks/series-actions.js';
import { approve } from '../../src/app/decide.js';
import { freeze, startUnfreeze, voteUnfreeze } from '../../src/app/freeze.js';
import { sealRequest } from '../../src/app/post-request.js';
import { SeriesStore } from '../../src/store/series.js';
import { transferOf } from '../support/factories.js';
import {
  APPROVALS,
  blocksText,
  envFor,
  eventually,
  type Harness,
  PEOPLE,
  REDIS_URL,
  SECRETS,
  startHarness,
} from '../support/harness.js';
import { quiescent, serviceCalls } from '../support/requests.js';
import { spawnWorker, workerReady } from '../support/worker-process.js';

const callsFor = (h: Harness, amount: number) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

describe('a series with two worker processes', () => {
  let h: Harness;
  const children: ChildProcess[] = [];
  const redis = new Redis(REDIS_URL);
  const series = () => new SeriesStore(redis, h.rampart.deps.store.keys);
  beforeAll(async () => {
    h = await startHarness('series', { ROLE: 'web' });
    const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker' });
    for (let i = 0; i < 2; i++) {
      const child = spawnWorker(env);
      children.push(child);
      await workerReady(child);
    }
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await redis.quit();
    try {
      expect(h.fake.violations).toEqual([]);
      for (const secret of SECRETS) expect(h.logs.text).not.toContain(secret);
    } finally {
      await h.close();
    }
  });

  /** Three runs, 2 s apart from 2 s ahead, approved by one approver: live, its first job added. */
  async function liveSeries(amount: number): Promise<{ id: string; runs: number[] }> {
    const deps = h.rampart.deps;
    const start = Date.now() + 2_000;
    const runs = [start, start + 2_000, start + 4_000];
    const s = await sealRequest(deps, {
      id: (await deps.store.allocate('S')).id,
      shape: 'series',
      call: transferOf(amount),
      display: { chain: 'base', walletAlias: 'ops' },
      requester: PEOPLE.requester,
      reason: 'a series',
      origin: undefined,
      required: 1,
      rule: '1 approval',
      stepUp: false,
      submission: `V${randomUUID()}`,
      schedule: { every: { unit: 'minutes', n: 1 }, at: undefined, zone: 'UTC', ends: { after: 3 }, runs },
    });
    if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
    expect((await approve(deps, s.sealed.id, PEOPLE.approver1)).kind).toBe('approved');
    return { id: s.sealed.id, runs };
  }

  const marks = (id: string) => series().runs(id);

  it('makes exactly three calls, one per run, each at or after its time', async () => {
    const { id, runs } = await liveSeries(7.07);
    await eventually(async () => ((await marks(id)).length === 3 ? true : undefined), 20_000, 'three runs');
    await eventually(() => (callsFor(h, 7.07).length >= 3 ? true : undefined), 20_000, 'three calls');
    await quiescent(h);
    const calls = callsFor(h, 7.07);
    expect(calls).toHaveLength(3);
    for (const [i, c] of calls.entries())
      expect(Date.parse(c.at)).toBeGreaterThanOrEqual(runs[i] ?? Number.POSITIVE_INFINITY);
    const created = await marks(id);
    expect(created.map((m) => m.status)).toEqual(['created', 'created', 'created']);
    const ids = created.map((m) => (m.status === 'created' ? m.id : ''));
    expect(new Set(ids).size).toBe(3);
    for (const runId of ids) expect((await h.rampart.deps.store.get(runId))?.state).toBe('succeeded');
  });

  it('a run skipped before its time is never sent: two calls', async () => {
    const { id } = await liveSeries(7.08);
    expect(await series().skipRun(id, 2, { by: PEOPLE.approver2 })).toEqual({
      outcome: 'skipped',
    });
    await eventually(async () => ((await marks(id)).length === 3 ? true : undefined), 20_000, 'three marks');
    await eventually(() => (callsFor(h, 7.08).length >= 2 ? true : undefined), 20_000, 'two calls');
    await quiescent(h);
    expect(callsFor(h, 7.08)).toHaveLength(2);
    expect((await marks(id)).map((m) => m.status)).toEqual(['created', 'skipped', 'created']);
  });

  it('posts the notice before each run once in its thread, with the Skip button naming that run', async () => {
    const { id } = await liveSeries(7.09);
    await eventually(async () => ((await marks(id)).length === 3 ? true : undefined), 20_000, 'three runs');
    const card = await eventually(
      () => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(id)),
      10_000,
      `${id}'s card`,
    );
    const notices = () => h.fake.thread(APPROVALS, card.ts).filter((m) => (m.text ?? '').startsWith('Next run'));
    await eventually(() => (notices().length >= 3 ? true : undefined), 20_000, 'three notices');
    await quiescent(h);
    const posted = notices();
    expect(posted).toHaveLength(3);
    expect(
      posted.map(
        (m) => (findElement(m.blocks ?? [], SERIES_ACTIONS.skipRun)?.element as { value?: string } | undefined)?.value,
      ),
    ).toEqual([1, 2, 3].map((k) => skipRunValue(id, k)));
    for (const m of posted) expect(m.text).toMatch(/^Next run (today|tomorrow) \d\d:\d\d: 7\.09 USDC to /);
  });

  it('sends nothing while frozen; the unfreeze wakes the series and only its latest run is sent, once', async () => {
    const { id } = await liveSeries(7.11);
    const deps = h.rampart.deps;
    expect((await freeze(deps, PEOPLE.approver1, 'a drill')).kind).toBe('frozen');
    try {
      // Each run's job finds the freeze: the older runs are skipped as a later one came due, the
      // last is held for the unfreeze.
      await eventually(async () => ((await series().read(id)).held === 3 ? true : undefined), 20_000, 'run 3 held');
      expect(callsFor(h, 7.11)).toEqual([]);
    } finally {
      const started = await startUnfreeze(deps, PEOPLE.approver1);
      if (started.kind === 'proposal')
        for (const user of [PEOPLE.approver1, PEOPLE.approver2])
          await voteUnfreeze(deps, user, started.proposal.id, 'unfreeze');
    }
    expect(await deps.controls.freeze()).toBeUndefined();
    await eventually(async () => ((await marks(id)).length === 3 ? true : undefined), 20_000, 'three marks');
    await eventually(() => (callsFor(h, 7.11).length >= 1 ? true : undefined), 20_000, 'one call');
    await quiescent(h);
    expect(callsFor(h, 7.11)).toHaveLength(1);
    expect((await marks(id)).map((m) => m.status)).toEqual(['skipped', 'skipped', 'created']);
  });
});
