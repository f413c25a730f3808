import { expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { rulesFor, velocitySubject } from '../../src/domain/velocity.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

const w = useWorld('batch-exec', { VELOCITY_LIMITS: 'ops:USDC=10000000/24h' });

/** A batch as submitBatch stores it: `B-<n>`, the approval's call carrying the total. */
const batch = (amounts: number[]) => sealBatch(w, amounts);

/** Takes the wallet's turn with row 1's first try and passes the funding check (as executeOne does). */
async function fund(id: string): Promise<void> {
  const r = await w.store.executions.start(`${id}.1`, 't');
  expect(r.token === undefined ? r.approval : 'started').toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
}

it('a row starts only when the row before it is final and no row of its batch is executing', async () => {
  const id = await batch([2.01, 2.02, 2.03]);
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  await fund(id);
  // Row 2 before row 1: refused in the script, nothing sent.
  expect((await w.store.executions.start(`${id}.2`, 't')).token).toBeUndefined();
  const one = await w.store.executions.start(`${id}.1`, 't');
  expect(one.token).toBeDefined();
  // Row 1 is between its compare-and-set and its answer: row 2 (and 3) may not start.
  expect((await w.store.executions.start(`${id}.2`, 't')).token).toBeUndefined();
  expect((await w.store.executions.start(`${id}.3`, 't')).token).toBeUndefined();
  await w.store.executions.finish(`${id}.1`, one.token ?? '', 'succeeded', {});
  expect((await w.store.executions.start(`${id}.3`, 't')).token).toBeUndefined();
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('succeeded');
  expect(await executeOne(w.exec(), `${id}.3`)).toBe('succeeded');
  // Row 1 was finished by hand above (never sent); rows 2 and 3 were each called once.
  expect([w.received(2.01), w.received(2.02), w.received(2.03)]).toEqual([0, 1, 1]);
  expect((await w.store.get(id))?.approvalState).toBe('done');
});

it('an unknown row pauses its batch in the same step: the next row may not start', async () => {
  const id = await batch([3.01, 3.02]);
  await approve(w.deps, id, APPROVERS[0] as string);
  await fund(id);
  const one = await w.store.executions.start(`${id}.1`, 't');
  await w.store.executions.finish(`${id}.1`, one.token ?? '', 'unknown', { message: 'no answer' });
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('skipped');
  expect(w.received(3.02)).toBe(0);
  expect((await w.store.batches.resume(id, APPROVERS[1] as string)).ok).toBe(true);
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('succeeded');
  expect((await w.store.get(id))?.counts).toMatchObject({ unknown: 1, succeeded: 1 });
});

it('a failed row gives back exactly its own amount, once; the others stay reserved', async () => {
  const id = await batch([4, 999, 6]);
  const record = await w.store.get(id);
  const subject = record ? velocitySubject(record.sealed) : undefined;
  if (!subject) throw new Error('no velocity subject');
  const rules = rulesFor(w.deps.config.controls.velocity, 'ops', 'USDC');
  // Earlier batches in this file share the wallet's ledger: count from here.
  const before = (await w.controls.usage(subject, rules, Date.now()))[0]?.used ?? 0n;
  const used = async () => ((await w.controls.usage(subject, rules, Date.now()))[0]?.used ?? 0n) - before;
  await approve(w.deps, id, APPROVERS[0] as string);
  // The approval reserved the total at quorum.
  expect(await used()).toBe(1_009_000_000n);
  expect(await executeOne({ ...w.exec(), controls: w.controls }, `${id}.1`)).toBe('succeeded');
  // The service refuses it: nothing moved.
  w.sandbox.faults.failNext('/transfer', 1, { status: 400 });
  expect(await executeOne({ ...w.exec(), controls: w.controls }, `${id}.2`)).toBe('failed');
  expect(await used()).toBe(10_000_000n);
  expect(await executeOne({ ...w.exec(), controls: w.controls }, `${id}.3`)).toBe('succeeded');
  expect(await used()).toBe(10_000_000n);
});
