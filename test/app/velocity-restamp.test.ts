import { beforeAll, beforeEach, expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { executeOne, markUnknown } from '../../src/app/execute-one.js';
import { loadConfig } from '../../src/config.js';
import { rulesFor, velocitySubject } from '../../src/domain/velocity.js';
import { RequestStore } from '../../src/store/requests.js';
import { APPROVERS, sealBatch, transfer, useWorld } from './support.js';

const HOUR = 3_600_000;
const w = useWorld('velocity-restamp');
let shift = 0;
const clock = () => Date.now() + shift;
let store: RequestStore;

beforeAll(async () => {
  store = new RequestStore(w.redis, w.prefix, clock);
  w.deps.store = store;
  w.deps.now = clock;
  w.deps.config = {
    ...loadConfig({ NODE_ENV: 'test', VELOCITY_LIMITS: 'ops:USDC=100/24h' }),
    approvers: APPROVERS,
  };
});
beforeEach(async () => {
  shift = 0;
  // Each test starts from an empty ledger, no freeze and no batch holding the wallet's turn.
  const subject = velocitySubject({ call: transfer(1), display: { chain: 'base' } });
  if (!subject) throw new Error('no subject');
  await w.redis.del(
    w.controls.ledgerKey(subject),
    w.controls.amountsKey(subject),
    w.controls.freezeKey,
    store.keys.turns,
  );
});

const A1 = APPROVERS[0] as string;
const A2 = APPROVERS[1] as string;
const exec = () => ({ ...w.exec(), store, now: clock, controls: w.controls });
const rules = () => rulesFor(w.deps.config.controls.velocity, 'ops', 'USDC');

/** USDC used in the 24 h window at the (shifted) clock, as the /batch check and the card read it. */
async function used(): Promise<number> {
  const subject = velocitySubject({ call: transfer(1), display: { chain: 'base' } });
  if (!subject) throw new Error('no subject');
  const [u] = await w.controls.usage(subject, rules(), clock());
  return Number(u?.used ?? 0n) / 1e6;
}

/** A batch of these rows (one row and `single`: a single request R-…), on the ops wallet. */
const batch = (amounts: number[], single = false) => sealBatch(w, amounts, single ? 'R' : 'B');

it('a paused batch across a 24 h window keeps its unsent rows counted: the next batch in that window is refused', async () => {
  const first = await batch([30, 30, 30]);
  expect((await approve(w.deps, first, A1)).kind).toBe('approved');
  expect(await executeOne(exec(), `${first}.1`)).toBe('succeeded');
  // Row 2's start is not acknowledged by a replica: back to queued, never sent, the batch pauses.
  expect(await executeOne({ ...exec(), durable: async () => false }, `${first}.2`)).toBe('skipped');
  expect((await store.get(first))?.approvalState).toBe('paused');
  expect(await used()).toBe(90);
  shift = 25 * HOUR;
  // Row 1 ran 25 h ago and has aged out; rows 2 and 3 (60) still count, paused.
  expect(await used()).toBe(60);
  const over = await batch([50]);
  expect((await approve(w.deps, over, A1)).kind).toBe('over_limit');
  const fits = await batch([40]);
  expect((await approve(w.deps, fits, A1)).kind).toBe('approved');
  // Resumed: rows 2 and 3 run now and count from now (their start), not from the approval.
  expect((await store.batches.resume(first, A2)).ok).toBe(true);
  expect(await executeOne(exec(), `${first}.2`)).toBe('succeeded');
  expect(await executeOne(exec(), `${first}.3`)).toBe('succeeded');
  expect(await used()).toBe(100);
  shift = 49 * HOUR;
  expect(await used()).toBe(40);
});

it('a single request approved 25 h ago and held by a freeze still counts; once run, it counts from its start', async () => {
  shift = -25 * HOUR;
  const id = await batch([80], true);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  shift = 0;
  await w.controls.setFreeze({ by: A1, at: clock(), reason: 'test' });
  expect(await executeOne(exec(), `${id}.1`)).toBe('held');
  expect(await used()).toBe(80);
  const over = await batch([30], true);
  expect((await approve(w.deps, over, A2)).kind).toBe('frozen');
  await w.redis.del(w.controls.freezeKey);
  expect((await approve(w.deps, over, A2)).kind).toBe('over_limit');
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  shift = 23 * HOUR;
  expect(await used()).toBe(80);
  shift = 25 * HOUR;
  expect(await used()).toBe(0);
});

it('a row a crashed worker left executing is re-stamped with its start time when it is settled unknown', async () => {
  const id = await batch([20, 25, 10]);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  expect(await executeOne(exec(), `${id}.1`)).toBe('succeeded');
  // Row 2 starts (its worker then dies before any answer): the reconciler's markUnknown settles it.
  const started = await store.executions.start(`${id}.2`, 'dead-worker', 'job-gone');
  expect(started.token).toBeDefined();
  shift = 2 * HOUR;
  expect(await markUnknown({ ...exec(), jobs: w.exec().jobs }, `${id}.2`, 'worker stopped')).toBe(true);
  expect((await store.get(id))?.approvalState).toBe('paused');
  // Unknown keeps its amount, counted from its start (2 h before the settling), not for ever;
  // row 3, unsent while the batch is paused, keeps counting.
  expect(await used()).toBe(55);
  shift = 25 * HOUR;
  expect(await used()).toBe(10);
});
