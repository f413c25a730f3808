import { expect, it } from 'vitest';
import type { Queues } from '../../src/adapters/jobs/queues.js';
import { resumeBatch, stopBatch } from '../../src/app/batch-control.js';
import { approve } from '../../src/app/decide.js';
import { type ExecuteOneDeps, executeOne } from '../../src/app/execute-one.js';
import { reconcile } from '../../src/app/executions/reconcile.js';
import { voteUnfreeze } from '../../src/app/freeze.js';
import { batchExec, frozenAfterRowOne, reservedUnits } from './batch-support.js';
import { A1, A2, REQUESTER, sealBatch, transfer, useWorld } from './support.js';

const w = useWorld('batch-safety', { VELOCITY_LIMITS: 'ops:USDC=10000000/24h' });

// Three failures in a row pause a batch here, so the pause itself can be tested.
const exec = (extra: Partial<ExecuteOneDeps> = {}) => batchExec(w, 3, extra);
const batch = (amounts: number[]) => sealBatch(w, amounts);

/** Rows 1…n in order, as the chain of jobs would run them; stops at the first that does not end. */
async function runRows(id: string, n: number, deps = exec()): Promise<string[]> {
  const results: string[] = [];
  for (let k = 1; k <= n; k++) {
    const r = await executeOne(deps, `${id}.${k}`);
    results.push(r);
    if (r !== 'succeeded' && r !== 'failed') break;
  }
  return results;
}

const reserved = (id: string) => reservedUnits(w, id);

const stop = (id: string) => stopBatch(w.deps, id, REQUESTER);

it('a success breaks the run of failures: fewer than BATCH_PAUSE_AFTER_FAILURES in a row do not pause', async () => {
  const id = await batch([5.01, 5.02, 5.03, 5.04, 5.05, 5.06]);
  await approve(w.deps, id, A1);
  w.sandbox.faults.failNext('/transfer', 2, { status: 400 });
  expect(await runRows(id, 3)).toEqual(['failed', 'failed', 'succeeded']);
  w.sandbox.faults.failNext('/transfer', 2, { status: 400 });
  expect(await executeOne(exec(), `${id}.4`)).toBe('failed');
  expect(await executeOne(exec(), `${id}.5`)).toBe('failed');
  expect((await w.store.get(id))?.approvalState).toBe('running');
  expect(await executeOne(exec(), `${id}.6`)).toBe('succeeded');
  expect((await w.store.get(id))?.approvalState).toBe('done');
});

it('the third failure in a row pauses the batch and says why; nothing more is sent until resumed', async () => {
  const id = await batch([6.01, 6.02, 6.03, 6.04]);
  await approve(w.deps, id, A1);
  w.sandbox.faults.failNext('/transfer', 3, { status: 400 });
  expect(await runRows(id, 3)).toEqual(['failed', 'failed', 'failed']);
  const record = await w.store.get(id);
  expect(record?.approvalState).toBe('paused');
  expect(record?.pauseReason).toContain('3 rows in a row failed');
  expect(await executeOne(exec(), `${id}.4`)).toBe('skipped');
  expect(w.received(6.04)).toBe(0);
  expect((await w.store.batches.resume(id, A2)).ok).toBe(true);
  expect(await executeOne(exec(), `${id}.4`)).toBe('succeeded');
  expect((await w.store.get(id))?.counts).toMatchObject({ failed: 3, succeeded: 1 });
});

it('batches of one wallet run in approval order, one at a time; the next starts when the first is done', async () => {
  const first = await batch([8.01, 8.02]);
  const second = await batch([8.11]);
  await approve(w.deps, first, A1);
  await approve(w.deps, second, A1);
  // The second batch's row tries first: refused (not its turn), nothing sent.
  expect(await executeOne(exec(), `${second}.1`)).toBe('skipped');
  expect(w.received(8.11)).toBe(0);
  expect(await executeOne(exec(), `${first}.1`)).toBe('succeeded');
  expect(await executeOne(exec(), `${second}.1`)).toBe('skipped');
  expect(await executeOne(exec(), `${first}.2`)).toBe('succeeded');
  expect(await executeOne(exec(), `${second}.1`)).toBe('succeeded');
  expect((await w.store.get(second))?.approvalState).toBe('done');
});

it('a single request is never held behind a batch', async () => {
  const held = await batch([9.01, 9.02]);
  await approve(w.deps, held, A1);
  expect(await executeOne(exec(), `${held}.1`)).toBe('succeeded');
  const single = await w.submit([transfer(9.5)]);
  await approve(w.deps, single, A1);
  expect(await executeOne(exec(), `${single}.1`)).toBe('succeeded');
  await stop(held);
});

it('BATCH_HOLD_LIMIT: no row starts past it; the reconciler cancels the unsent rows and gives each back once', async () => {
  const id = await batch([10.01, 10.02, 10.03]);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  const before = await reserved(id);
  await w.redis.hset(w.store.keys.approval(id), 'decidedAt', String(Date.now() - 86_400_001));
  expect(await executeOne(exec(), `${id}.2`)).toBe('skipped');
  expect(w.received(10.02)).toBe(0);
  const deps = {
    store: w.store,
    queues: w.deps.queues as Queues,
    log: w.deps.log,
    now: Date.now,
    controls: w.controls,
  };
  await reconcile({ ...deps, holdLimitMs: 86_400_000 });
  await reconcile({ ...deps, holdLimitMs: 86_400_000 });
  const record = await w.store.get(id);
  expect(record?.counts).toMatchObject({ succeeded: 1, cancelled: 2, queued: 0 });
  expect(record?.approvalState).toBe('done');
  expect(before - (await reserved(id))).toBe(20_050_000n);
});

it('BATCH_HOLD_LIMIT is judged on Redis time, as the start judges it: a worker clock far ahead or behind changes nothing', async () => {
  const DAY = 86_400_000;
  const deps = { store: w.store, queues: w.deps.queues as Queues, log: w.deps.log, controls: w.controls };
  // Within the limit on Redis's clock: a worker two days ahead cancels nothing, and the row runs.
  const fresh = await batch([13.01, 13.02]);
  await approve(w.deps, fresh, A1);
  await reconcile({ ...deps, now: () => Date.now() + 2 * DAY, holdLimitMs: DAY });
  expect((await w.store.get(fresh))?.counts).toMatchObject({ queued: 2, cancelled: 0 });
  expect(await executeOne(exec(), `${fresh}.1`)).toBe('succeeded');
  // Past it on Redis's clock: a worker two days behind still cancels the unsent rows.
  const old = await batch([13.11, 13.12]);
  await approve(w.deps, old, A1);
  await w.redis.hset(w.store.keys.approval(old), 'decidedAt', String((await w.store.redisNow()) - DAY - 60_000));
  await reconcile({ ...deps, now: () => Date.now() - 2 * DAY, holdLimitMs: DAY });
  expect((await w.store.get(old))?.counts).toMatchObject({ queued: 0, cancelled: 2 });
  expect(w.received(13.11)).toBe(0);
  await stop(fresh);
});

it('stop gives back each cancelled row once, in the cancelling script; the rows that ran keep theirs', async () => {
  const id = await batch([11.01, 11.02, 11.03]);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  expect(await reserved(id)).toBe(33_060_000n);
  expect((await stop(id)).kind).toBe('stopped');
  expect(await reserved(id)).toBe(11_010_000n);
  // A second cancel finds nothing to cancel and gives nothing back.
  await w.store.executions.cancelQueued(id, { event: 'cancelled' });
  expect(await reserved(id)).toBe(11_010_000n);
});

it('a row whose start no replica acknowledged goes back to queued, never sent, and its batch pauses', async () => {
  const id = await batch([12.01, 12.02]);
  await approve(w.deps, id, A1);
  expect(await executeOne(exec({ durable: async () => false }), `${id}.1`)).toBe('skipped');
  const record = await w.store.get(id);
  expect(record?.approvalState).toBe('paused');
  expect(record?.pauseReason).toContain('no Redis replica acknowledged');
  expect((await w.store.execution(`${id}.1`))?.state).toBe('queued');
  expect(w.received(12.01)).toBe(0);
  expect((await w.store.batches.resume(id, A2)).ok).toBe(true);
  expect(await runRows(id, 2)).toEqual(['succeeded', 'succeeded']);
});

it('unfreeze-cancel gives back each unsent row of a batch once; its rows that ran stay reserved', async () => {
  const { id, freezeDeps, proposal } = await frozenAfterRowOne(w, exec, [13.01, 13.02, 13.03]);
  await voteUnfreeze(freezeDeps, A1, proposal, 'cancel');
  expect((await voteUnfreeze(freezeDeps, A2, proposal, 'cancel')).kind).toBe('lifted');
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 1, cancelled: 2 });
  expect(await reserved(id)).toBe(13_010_000n);
});

it('a 500 on row 3 of 10: row 3 unknown and never sent again, the batch pauses; resumed, the other seven run once', async () => {
  const amounts = Array.from({ length: 10 }, (_, i) => 14 + (i + 1) / 100);
  const id = await batch(amounts);
  await approve(w.deps, id, A1);
  expect(await runRows(id, 2)).toEqual(['succeeded', 'succeeded']);
  w.sandbox.faults.failNext('/transfer', 1, { status: 500 });
  expect(await executeOne(exec(), `${id}.3`)).toBe('unknown');
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  // Every later row's try, and row 3's again, while paused: nothing is sent.
  for (let k = 3; k <= 10; k++) expect(await executeOne(exec(), `${id}.${k}`)).toBe('skipped');
  expect((await w.store.batches.resume(id, A2)).ok).toBe(true);
  for (let k = 3; k <= 10; k++) await executeOne(exec(), `${id}.${k}`);
  // The same tries again after the batch ended: each row was sent once, row 3 (the 500) included.
  for (let k = 1; k <= 10; k++) await executeOne(exec(), `${id}.${k}`);
  expect(amounts.map((a) => w.received(a))).toEqual(amounts.map(() => 1));
  expect((await w.store.get(id))?.counts).toMatchObject({ succeeded: 9, unknown: 1 });
});

// Last: it empties the sandbox wallet.
it('a single request emptying the wallet: the batch pauses with the funding sentence and 0 calls', async () => {
  const balances = await w.service.getBalances('wal_ops_7f3a');
  const available = balances.find((b) => b.id === 'base:usdc')?.available ?? 0;
  const id = await batch([7, 7.5]);
  await approve(w.deps, id, A1);
  // A single request approved and run first takes nearly everything.
  const single = await w.submit([transfer(Math.floor(available) - 5)]);
  await approve(w.deps, single, A1);
  expect(await executeOne(exec(), `${single}.1`)).toBe('succeeded');
  const transfers = () => w.sandbox.state.received.filter((r) => r.path === '/transfer').length;
  const calls = transfers();
  expect(await executeOne(exec(), `${id}.1`)).toBe('skipped');
  const record = await w.store.get(id);
  expect(record?.approvalState).toBe('paused');
  expect(record?.pauseReason).toMatch(
    /^ops holds \d[\d,.]* USDC; the remaining 2 rows need 14.50 USDC — fund it and resume, or stop$/,
  );
  expect(transfers()).toBe(calls);
  // Resume checks the funding first: it answers "not resumed" and the batch stays paused.
  const refused = await resumeBatch(w.deps, id, A2);
  expect(refused).toMatchObject({ kind: 'unfunded', requestId: id });
  expect(refused.kind === 'unfunded' && refused.shortfall).toMatch(
    /^ops holds \d[\d,.]*\.\d\d USDC; the remaining 2 rows need 14.50 USDC$/,
  );
  expect((await w.store.history(id)).some((e) => e.event === 'resumed')).toBe(false);
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  // Resumed while still short: checked again, paused again, still nothing sent.
  expect((await w.store.batches.resume(id, A2)).ok).toBe(true);
  expect(await executeOne(exec(), `${id}.1`)).toBe('skipped');
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  expect(transfers()).toBe(calls);
});
