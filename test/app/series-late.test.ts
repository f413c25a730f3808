import { describe, expect, it } from 'vitest';
import { executeOne } from '../../src/app/execute-one.js';
import { startUnfreeze, voteUnfreeze } from '../../src/app/freeze.js';
import type { Notifier } from '../../src/app/notifier.js';
import { runDue, type SeriesRunDeps } from '../../src/app/series/run-due.js';
import { createWorkerApp } from '../../src/app/worker-app.js';
import { APPROVERS, MINUTE, sealSeries, T0, useSeriesWorld, type World } from './support.js';

let w: World;
let deps: SeriesRunDeps;
const clock = useSeriesWorld('series-late', (world, seriesDeps) => {
  w = world;
  deps = seriesDeps;
});

/** A series of three runs a minute apart from `first`, approved by one approver: live. */
const liveSeries = (amount: number, first = T0) => sealSeries(w, amount, { first });

/** Runs every run the due call queued, as the execute job would. */
async function executeQueued(): Promise<void> {
  for (const t of w.tries.splice(0)) await executeOne(w.exec(), t.id);
}

/** Deps whose SCHEDULE_GRACE is `graceMs`. */
const withGrace = (graceMs: number): SeriesRunDeps => ({
  ...deps,
  config: { ...deps.config, series: { ...deps.config.series, graceMs } },
});

it('after downtime runs only the latest missed run, however often the job runs, and lists the others in one reply', async () => {
  const id = await liveSeries(3.03);
  // The worker was down across all three runs; it comes back 10 s after the last one.
  clock.at = T0 + 2 * MINUTE + 10_000;
  const notices = w.notified.length;
  const first = await runDue(deps, id);
  expect(first).toMatchObject({ k: 3, outcome: 'created', nextAt: undefined });
  // A retry of the job, or a second worker, finds nothing more to run.
  for (let i = 0; i < 3; i++) expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: undefined });
  await executeQueued();
  expect(w.received(3.03)).toBe(1);
  const marks = await deps.series.runs(id);
  expect(marks.map((m) => m.status)).toEqual(['skipped', 'skipped', 'created']);
  expect(marks[0]).toMatchObject({
    why: 'due at 2026-11-01 08:00 UTC while Rampart was not running; run 3 runs in its place, as at most one missed run runs',
  });
  // One reply for both skipped runs, recorded by Rampart in the series' history.
  expect(w.notified.slice(notices).filter((n) => n.requestId === id && n.kind === 'run-skipped')).toHaveLength(1);
  const history = await w.store.history(id);
  expect(history.filter((h) => h.event === 'run skipped').map((h) => h.by)).toEqual(['rampart', 'rampart']);
});

it('after downtime longer than SCHEDULE_GRACE runs nothing: every missed run is skipped with the reason', async () => {
  const id = await liveSeries(3.04);
  clock.at = T0 + 2 * MINUTE + 40_000;
  expect(await runDue(withGrace(30_000), id)).toEqual({ outcome: 'none', nextAt: undefined });
  expect(w.tries).toEqual([]);
  const marks = await deps.series.runs(id);
  expect(marks.map((m) => (m.status === 'skipped' ? m.why : m.status))).toEqual([
    'due at 2026-11-01 08:00 UTC while Rampart was not running; more than SCHEDULE_GRACE (30 seconds) ago',
    'due at 2026-11-01 08:01 UTC while Rampart was not running; more than SCHEDULE_GRACE (30 seconds) ago',
    'due at 2026-11-01 08:02 UTC while Rampart was not running; more than SCHEDULE_GRACE (30 seconds) ago',
  ]);
});

describe('a run due while frozen', () => {
  const scheduled: { seriesId: string; delayMs: number }[] = [];
  const freezeDeps = () => ({
    ...w.deps,
    unfreeze: w.unfreeze,
    queues: {
      ...w.deps.queues,
      scheduleSeriesRun: async (seriesId: string, _at: number, delayMs: number) =>
        void scheduled.push({ seriesId, delayMs }),
    } as typeof w.deps.queues,
  });
  const unfreeze = async () => {
    const started = await startUnfreeze(freezeDeps(), APPROVERS[0] as string);
    if (started.kind !== 'proposal') throw new Error(started.kind);
    for (const a of APPROVERS) await voteUnfreeze(freezeDeps(), a, started.proposal.id, 'unfreeze');
    expect(await w.controls.freeze()).toBeUndefined();
  };

  it('is not created; the unfreeze wakes its series, and within SCHEDULE_GRACE it runs once', async () => {
    const id = await liveSeries(3.05);
    await w.controls.setFreeze({ by: APPROVERS[0] as string, at: T0, reason: 'drill' });
    clock.at = T0;
    expect(await runDue(deps, id)).toMatchObject({ k: 1, outcome: 'frozen', nextAt: T0 + MINUTE / 2 });
    expect(w.tries).toEqual([]);
    expect(await deps.series.runs(id)).toEqual([]);
    scheduled.length = 0;
    await unfreeze();
    expect(scheduled).toEqual([{ seriesId: id, delayMs: 0 }]);
    // The woken job, 20 s after the run's time.
    clock.at = T0 + 20_000;
    expect(await runDue(deps, id)).toMatchObject({ k: 1, outcome: 'created' });
    await executeQueued();
    expect(w.received(3.05)).toBe(1);
    // A second lift wakes nothing more.
    expect(await w.controls.heldSeries()).toEqual([]);
  });

  it('is skipped once the freeze outlasted SCHEDULE_GRACE, saying so', async () => {
    const id = await liveSeries(3.06);
    await w.controls.setFreeze({ by: APPROVERS[0] as string, at: T0, reason: 'drill' });
    clock.at = T0;
    expect(await runDue(withGrace(10_000), id)).toMatchObject({ k: 1, outcome: 'frozen' });
    await unfreeze();
    clock.at = T0 + 20_000;
    expect(await runDue(withGrace(10_000), id)).toEqual({ outcome: 'none', nextAt: T0 + MINUTE / 2 });
    expect(w.tries).toEqual([]);
    expect(await deps.series.runs(id)).toEqual([
      {
        k: 1,
        status: 'skipped',
        why: 'due at 2026-11-01 08:00 UTC while payments were frozen; more than SCHEDULE_GRACE (10 seconds) ago',
      },
    ]);
  });
});

it('posts the notice half a minute before each run of a series every minute, once however many workers wake', async () => {
  const id = await liveSeries(3.07);
  const notices = () => w.notified.filter((n) => n.requestId === id && n.kind === 'run-notice');
  clock.at = T0 - 31_000;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: T0 - 30_000 });
  expect(notices()).toEqual([]);
  clock.at = T0 - 30_000;
  const woken = await Promise.all([runDue(deps, id), runDue(deps, id), runDue(deps, id)]);
  expect(woken).toEqual([0, 1, 2].map(() => ({ outcome: 'none', nextAt: T0 })));
  expect(notices()).toEqual([{ requestId: id, kind: 'run-notice', run: 1 }]);
  clock.at = T0;
  await Promise.all([runDue(deps, id), runDue(deps, id)]);
  clock.at = T0 + 30_000;
  await Promise.all([runDue(deps, id), runDue(deps, id)]);
  expect(notices().map((n) => n.run)).toEqual([1, 2]);
  await executeQueued();
});

it('a job that woke before its moment waits in place rather than adding a job of its own id', async () => {
  const id = await liveSeries(3.08);
  const scheduled: number[] = [];
  const app = createWorkerApp({
    service: w.service,
    store: w.store,
    registry: w.deps.registry,
    controls: w.controls,
    jobs: {
      ...w.deps.queues,
      scheduleSeriesRun: async (_id: string, at: number) => void scheduled.push(at),
    } as typeof w.deps.queues,
    notifier: {} as Notifier,
    log: w.deps.log,
    approvalsChannel: 'C0APPROVALS',
    now: () => clock.at,
    workerName: 't',
    reminders: {
      approvers: { members: async () => [] },
      escalateTo: { members: async () => [] },
      reminderAfterMs: undefined,
      reminderMax: 0,
    },
    series: {
      config: deps.config,
      approvers: deps.approvers,
      series: deps.series,
      apiKeys: { get: async () => undefined },
      people: { isActive: async () => true },
    },
  });
  // Its notice's job, set for 30 s before run 1, run by a worker whose clock is a second behind.
  clock.at = T0 - 31_000;
  expect(await app.series.runDue(id, T0 - 30_000)).toEqual({ status: 'wait', ms: 1_000 });
  expect(scheduled).toEqual([]);
  clock.at = T0 - 30_000;
  expect(await app.series.runDue(id, T0 - 30_000)).toMatchObject({ status: 'done' });
  expect(scheduled).toEqual([T0]);
});

it('a worker whose clock runs ahead creates a run early at worst, and nothing is sent before its time', async () => {
  const first = Date.now() + 3_600_000;
  const id = await liveSeries(3.09, first);
  clock.at = first;
  const r = await runDue(deps, id);
  expect(r).toMatchObject({ k: 1, outcome: 'created' });
  const runId = (r as { id: string }).id;
  expect((await w.store.get(runId))?.runAt).toBe(first);
  await executeQueued();
  expect(w.received(3.09)).toBe(0);
  expect((await w.store.get(runId))?.executions[0]?.state).toBe('queued');
  w.tries.splice(0);
});
