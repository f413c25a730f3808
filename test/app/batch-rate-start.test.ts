/**
 * BATCH_RATE is decided inside the start script, after every other condition: a batch's row
 * before its slot is told how long to wait and nothing changes; a row refused for any other
 * reason uses no slot; a single request is never paced by it. Order and outcomes, not durations.
 */
import { beforeEach, expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { runExecution } from '../../src/app/executions/run.js';
import type { Rate } from '../../src/domain/rate.js';
import { APPROVERS, approvedBatch as approvedBatchOf, sealBatch, useWorld } from './support.js';

const w = useWorld('batch-rate-start');
beforeEach(async () => {
  await w.redis.del(w.deps.store.keys.batchRate);
});

/** One admission a minute: a second row inside this test never gets a slot. */
const slow: Rate = { intervalMs: 60_000, burst: 1, text: '1/m' };
const paced = () => ({ ...w.exec(), batch: { pauseAfterFailures: 10, holdLimitMs: 86_400_000, rate: slow } });

const approvedBatch = (amounts: number[]) => approvedBatchOf(w, amounts);

/** Rows `from`… sent with a fresh slot each, so the batch ends and gives back its wallet's turn. */
async function finish(id: string, from: number, to: number) {
  for (let n = from; n <= to; n++) {
    await w.redis.del(w.deps.store.keys.batchRate);
    expect(await executeOne(paced(), `${id}.${n}`)).toBe('succeeded');
  }
}

it('a row before its slot waits the time the script names, and stays queued with nothing sent', async () => {
  const id = await approvedBatch([7.01, 7.02]);
  expect(await executeOne(paced(), `${id}.1`)).toBe('succeeded');
  const outcome = await runExecution({ ...paced(), jobs: w.deps.queues }, `${id}.2`, 'job-2');
  expect(outcome.status).toBe('wait');
  expect(outcome.status === 'wait' && outcome.ms).toBeGreaterThan(30_000);
  expect((await w.store.execution(`${id}.2`))?.state).toBe('queued');
  expect(w.received(7.02)).toBe(0);
  await finish(id, 2, 2);
});

it('a row refused for another reason (its row before still queued) uses no slot', async () => {
  const id = await approvedBatch([8.01, 8.02]);
  // Row 2 first: row 1 is still queued, so the script refuses it before BATCH_RATE is asked.
  expect(await executeOne(paced(), `${id}.2`)).toBe('skipped');
  expect(await executeOne(paced(), `${id}.1`)).toBe('succeeded');
  expect(w.received(8.01)).toBe(1);
  await finish(id, 2, 2);
});

it('a single request is never paced by BATCH_RATE, even when the batch slot is taken', async () => {
  const batch = await approvedBatch([9.01, 9.02]);
  expect(await executeOne(paced(), `${batch}.1`)).toBe('succeeded');
  const single = await sealBatch(w, [9.5], 'R');
  expect((await approve(w.deps, single, APPROVERS[0] as string)).kind).toBe('approved');
  expect(await executeOne(paced(), `${single}.1`)).toBe('succeeded');
  expect(w.received(9.5)).toBe(1);
  await finish(batch, 2, 2);
});
