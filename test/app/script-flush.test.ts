/**
 * Redis may forget every script at any moment (a restart, a failover, SCRIPT FLUSH). The store
 * sends each script by hash and its text only after NOSCRIPT (store/run-script.ts), and the
 * scripts are read from store/lua/*.lua once at start: a flush between a vote and its wake-up,
 * or before a start, costs one re-send and changes nothing else — each payment still runs once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { APPROVERS, sealBatch, startWorld, type World } from './support.js';

let w: World;
beforeAll(async () => {
  w = await startWorld('script-flush');
});
afterAll(() => w.close());

const A1 = APPROVERS[0] as string;

it('a vote, SCRIPT FLUSH, then its wake-up: the start finds its script and the payment runs once', async () => {
  const id = await sealBatch(w, [3.11], 'R');
  const before = w.tries.length;
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  // The vote's wake-up job for execution 1 came with the vote.
  const wake = w.tries.slice(before).find((t) => t.id === `${id}.1`);
  expect(wake).toBeDefined();
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: 'wake-1' })).toBe('succeeded');
  // A second pick-up of the same job finds nothing queued: no second call.
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: 'wake-1' })).toBe('skipped');
  expect(w.received(3.11)).toBe(1);
  expect((await w.store.get(id))?.state).toBe('succeeded');
});

it('SCRIPT FLUSH before each start of a batch: every row still starts, in order, and runs once', async () => {
  const id = await sealBatch(w, [3.21, 3.22]);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  await w.redis.script('FLUSH');
  // Row 1's first start takes the wallet's turn and asks for the funding check.
  const first = await w.store.executions.start(`${id}.1`, 't');
  expect(first.token === undefined ? first.approval : 'started').toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  await w.redis.script('FLUSH');
  // Row 2 before row 1 is refused by the start script, which Redis had to be sent again.
  expect((await w.store.executions.start(`${id}.2`, 't')).token).toBeUndefined();
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  await w.redis.script('FLUSH');
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('succeeded');
  expect([w.received(3.21), w.received(3.22)]).toEqual([1, 1]);
  const record = await w.store.get(id);
  expect(record).toMatchObject({ shape: 'batch', approvalState: 'done', state: 'succeeded' });
});
