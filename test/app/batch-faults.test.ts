import { expect, it } from 'vitest';
import type { Queues } from '../../src/adapters/jobs/queues.js';
import { stopBatch } from '../../src/app/batch-control.js';
import { approve } from '../../src/app/decide.js';
import { type ExecuteOneDeps, executeOne } from '../../src/app/execute-one.js';
import { reconcile } from '../../src/app/executions/reconcile.js';
import { voteUnfreeze } from '../../src/app/freeze.js';
import { batchExec, frozenAfterRowOne, reservedUnits } from './batch-support.js';
import { A1, A2, REQUESTER, sealBatch, useWorld } from './support.js';

const w = useWorld('batch-faults', { VELOCITY_LIMITS: 'ops:USDC=10000000/24h' });

const batch = (amounts: number[]) => sealBatch(w, amounts);

const exec = (extra: Partial<ExecuteOneDeps> = {}) => batchExec(w, 10_000, extra);
const transfers = () => w.sandbox.state.received.filter((r) => r.path === '/transfer').length;
const reconcileOnce = () =>
  reconcile({
    store: w.store,
    queues: w.deps.queues as Queues,
    log: w.deps.log,
    now: Date.now,
    controls: w.controls,
    holdLimitMs: 86_400_000,
  });

/** Runs every try the use cases queued so far (as the execute worker would), once each. */
async function drainTries(deps = exec()): Promise<string[]> {
  const results: string[] = [];
  while (w.tries.length > 0) {
    const t = w.tries.shift();
    if (t) results.push(await executeOne(deps, t.id));
  }
  return results;
}

const reserved = (id: string) => reservedUnits(w, id);

it('a stop while a row is between its pick-up and its compare-and-set: 0 calls for the stopped rows', async () => {
  const id = await batch([21.01, 21.02, 21.03]);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  const calls = transfers();
  // Guarded by START's "approval approved or running" check (a stopped batch is cancelled/done).
  const stopping = exec({
    beforeStart: async () => {
      expect((await stopBatch(w.deps, id, REQUESTER)).kind).toBe('stopped');
    },
  });
  expect(await executeOne(stopping, `${id}.2`)).toBe('skipped');
  expect(await executeOne(exec(), `${id}.3`)).toBe('skipped');
  expect(transfers()).toBe(calls);
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 1, cancelled: 2, queued: 0 });
});

it('the reconciler running during a pause starts nothing; resumed after the paused rows’ jobs completed, each runs once', async () => {
  const amounts = [22.01, 22.02, 22.03, 22.04];
  const id = await batch(amounts);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  expect((await w.store.batches.pause(id, 'test pause')).ok).toBe(true);
  const calls = transfers();
  w.tries.length = 0;
  // Guarded by START refusing a paused approval: whatever the reconciler queues sends nothing.
  await reconcileOnce();
  await reconcileOnce();
  const during = await drainTries();
  expect(during.every((r) => r === 'skipped')).toBe(true);
  // The paused rows' own jobs also completed (skipped) while paused.
  for (let k = 2; k <= 4; k++) expect(await executeOne(exec(), `${id}.${k}`)).toBe('skipped');
  expect(transfers()).toBe(calls);
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 1, queued: 3 });
  // Resumed: new tries (the reconciler's, and each row's end queueing the next), each row once.
  expect((await w.store.batches.resume(id, A2)).ok).toBe(true);
  for (let round = 0; round < 4; round++) {
    await reconcileOnce();
    for (let k = 2; k <= 4; k++) await executeOne(exec(), `${id}.${k}`);
    await drainTries();
  }
  expect(amounts.map((a) => w.received(a))).toEqual([1, 1, 1, 1]);
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 4 });
});

it('100 failed rows of 1,000 give back exactly their sum, once (BATCH_PAUSE_AFTER_FAILURES high)', async () => {
  // Row k pays 0.01·k + 1 (all distinct): rows 10, 20, …, 1000 are refused by the service.
  const amounts = Array.from({ length: 1000 }, (_, i) => Math.round((1 + (i + 1) / 100) * 100) / 100);
  const id = await batch(amounts);
  await approve(w.deps, id, A1);
  const total = amounts.reduce((s, a) => s + BigInt(Math.round(a * 1e6)), 0n);
  expect(await reserved(id)).toBe(total);
  let failedUnits = 0n;
  for (let k = 1; k <= 1000; k++) {
    if (k % 10 === 0) {
      w.sandbox.faults.failNext('/transfer', 1, { status: 400 });
      failedUnits += BigInt(Math.round((amounts[k - 1] ?? 0) * 1e6));
    }
    expect(await executeOne(exec(), `${id}.${k}`)).toBe(k % 10 === 0 ? 'failed' : 'succeeded');
  }
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 900, failed: 100 });
  expect(await reserved(id)).toBe(total - failedUnits);
  // The same rows' tries again (a duplicate job, the reconciler): nothing more is given back.
  for (let k = 10; k <= 1000; k += 10) expect(await executeOne(exec(), `${id}.${k}`)).toBe('skipped');
  expect(await reserved(id)).toBe(total - failedUnits);
}, 120_000);

const frozen = (amounts: number[]) => frozenAfterRowOne(w, exec, amounts);

it('freeze mid-batch, then release: the rest run once', async () => {
  const amounts = [23.01, 23.02, 23.03];
  const { id, freezeDeps, proposal } = await frozen(amounts);
  expect(w.received(23.02)).toBe(0);
  await voteUnfreeze(freezeDeps, A1, proposal, 'unfreeze');
  expect((await voteUnfreeze(freezeDeps, A2, proposal, 'unfreeze')).kind).toBe('lifted');
  w.tries.length = 0;
  for (let round = 0; round < 3; round++) {
    await reconcileOnce();
    for (let k = 2; k <= 3; k++) await executeOne(exec(), `${id}.${k}`);
    await drainTries();
  }
  expect(amounts.map((a) => w.received(a))).toEqual([1, 1, 1]);
});

it('unfreeze-cancel with 1,000 rows: every unsent row cancelled, the freeze lifted, one card refresh', async () => {
  const amounts = Array.from({ length: 1000 }, (_, i) => Math.round((30 + (i + 1) / 100) * 100) / 100);
  const { id, freezeDeps, proposal } = await frozen(amounts);
  await voteUnfreeze(freezeDeps, A1, proposal, 'cancel');
  w.notified.length = 0;
  expect((await voteUnfreeze(freezeDeps, A2, proposal, 'cancel')).kind).toBe('lifted');
  expect(await w.controls.freeze()).toBeUndefined();
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 1, cancelled: 999, queued: 0 });
  // One refresh of the batch's card and thread for all 999 rows (not one per row or per page).
  expect(w.notified.filter((n) => n.requestId === id)).toHaveLength(1);
  expect(await executeOne(exec(), `${id}.2`)).toBe('skipped');
  expect(w.received(30.02)).toBe(0);
}, 60_000);
