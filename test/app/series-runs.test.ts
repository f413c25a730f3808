/**
 * A live series' runs through the use case a worker runs (app/series/run-due.ts), on a fake clock
 * over the sealed run dates: each due run is created once and queued, and the sandbox receives
 * one POST per run that was not skipped; a run after TWO_APPROVALS_ABOVE was lowered below the
 * series' total is skipped and the series pauses, with nothing sent.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeOne } from '../../src/app/execute-one.js';
import { sealRequest } from '../../src/app/post-request.js';
import { runDue, type SeriesRunDeps } from '../../src/app/series/run-due.js';
import { SeriesStore } from '../../src/store/series.js';
import { APPROVERS, REQUESTER, startWorld, transfer, type World } from './support.js';

let w: World;
let clock = 0;
let deps: SeriesRunDeps;
beforeAll(async () => {
  w = await startWorld('series-runs');
  deps = { ...w.deps, now: () => clock, series: new SeriesStore(w.redis, w.store.keys, () => clock) };
});
afterAll(() => w.close());

const T0 = Date.UTC(2026, 11, 1, 8);
const MINUTE = 60_000;

/** A series of three runs a minute apart, approved by one approver: live. */
async function liveSeries(amount: number): Promise<string> {
  const s = await sealRequest(w.deps, {
    id: (await w.store.allocate('S')).id,
    shape: 'series',
    call: transfer(amount),
    display: { chain: 'base', walletAlias: 'ops' },
    requester: REQUESTER,
    reason: 'weekly sweep',
    origin: undefined,
    required: 1,
    rule: '1 approval',
    stepUp: false,
    submission: `V${randomUUID()}`,
    schedule: {
      every: { unit: 'minutes', n: 1 },
      at: undefined,
      zone: 'UTC',
      ends: { after: 3 },
      runs: [T0, T0 + MINUTE, T0 + 2 * MINUTE],
    },
  });
  if (s.kind !== 'created') throw new Error(`not created: ${s.kind}`);
  expect((await w.store.castVote(s.sealed.id, APPROVERS[0] as string)).state as string).toBe('live');
  return s.sealed.id;
}

/** Runs every run the due call queued, as the execute job would. */
async function executeQueued(): Promise<void> {
  for (const t of w.tries.splice(0)) await executeOne(w.exec(), t.id);
}

it('makes exactly one POST per run, in order, however many workers ask at once; a skipped run makes none', async () => {
  const id = await liveSeries(3.01);
  clock = T0 - 1;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: T0 });
  clock = T0;
  const [a, b] = await Promise.all([runDue(deps, id), runDue(deps, id)]);
  expect([a.outcome, b.outcome].sort()).toEqual(['created', 'exists']);
  expect(a).toMatchObject({ k: 1, nextAt: T0 + MINUTE });
  await executeQueued();
  expect(w.received(3.01)).toBe(1);
  // An approver skips run 2 before its time: it is never created.
  expect(await deps.series.skipRun(id, 2, APPROVERS[1] as string)).toEqual({ outcome: 'skipped' });
  clock = T0 + MINUTE;
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: T0 + 2 * MINUTE });
  clock = T0 + 2 * MINUTE;
  expect(await runDue(deps, id)).toMatchObject({ k: 3, outcome: 'created', nextAt: undefined });
  await executeQueued();
  expect(await runDue(deps, id)).toEqual({ outcome: 'none', nextAt: undefined });
  expect(w.received(3.01)).toBe(2);
  expect((await deps.series.runs(id)).map((m) => m.status)).toEqual(['created', 'skipped', 'created']);
});

it('skips a run and pauses the series when TWO_APPROVALS_ABOVE was lowered below its total', async () => {
  const id = await liveSeries(3.02);
  clock = T0;
  expect(await runDue(deps, id)).toMatchObject({ k: 1, outcome: 'created' });
  await executeQueued();
  const policy = deps.config.policy;
  deps = { ...deps, config: { ...deps.config, policy: { ...policy, twoApprovalsAbove: { USDC: '5' } } } };
  try {
    clock = T0 + MINUTE;
    expect(await runDue(deps, id)).toMatchObject({ k: 2, outcome: 'paused_now', why: 'more_approvals' });
    clock = T0 + 2 * MINUTE;
    expect(await runDue(deps, id)).toMatchObject({ k: 3, outcome: 'paused' });
    expect(w.tries).toEqual([]);
    expect(w.received(3.02)).toBe(1);
  } finally {
    deps = { ...deps, config: { ...deps.config, policy } };
  }
});
