/**
 * Unsent executions cancelled after their approval (the unfreeze's cancel, a batch's stop,
 * BATCH_HOLD_LIMIT) give their velocity reservation back in the cancelling script itself, as a
 * waiting approval's cancel (store/lua/window-cancel.lua) and the start's own cancel do: never in
 * a second round trip a worker could die before, which would leave the quorum's +inf reservation
 * counting forever (a second lift finds nothing left to cancel, so it would never give it back).
 * The script reads the ledger from what the approval stores (store/lua/includes/give-back.lua):
 * the caller passes no ledger key and no units.
 */
import { expect, it } from 'vitest';
import { cancelUnsent } from '../../src/app/batch-run.js';
import { approve } from '../../src/app/decide.js';
import { TOTAL_FIELD } from '../../src/store/velocity-lua.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

const w = useWorld('cancel-unsent-release', { VELOCITY_LIMITS: 'ops:USDC=100000/24h' });

const ledgerKey = () => `${w.prefix}:velocity:wal_ops_7f3a:USDC`;
const amountsKey = () => `${ledgerKey()}:amounts`;
const total = async () => BigInt((await w.redis.hget(amountsKey(), TOTAL_FIELD)) ?? '0');
const cancel = (id: string, detail = 'test') =>
  cancelUnsent({ ...w.deps, jobs: w.deps.queues }, id, { event: 'cancelled', detail });

async function approved(amounts: number[], kind: 'B' | 'R'): Promise<string> {
  const id = await sealBatch(w, amounts, kind);
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  return id;
}

it("a single's cancel gives its whole reservation back in the same script", async () => {
  const id = await approved([7.25], 'R');
  expect(await w.redis.hget(amountsKey(), id)).toBe('7250000');
  const before = await total();
  expect(await cancel(id)).toBe(1);
  // Read right after that one call: nothing else ran in between.
  expect(await w.redis.zscore(ledgerKey(), id)).toBeNull();
  expect(await w.redis.hget(amountsKey(), id)).toBeNull();
  expect(await total()).toBe(before - 7_250_000n);
  // A second cancel finds nothing and gives nothing back twice.
  expect(await cancel(id, 'again')).toBe(0);
  expect(await total()).toBe(before - 7_250_000n);
});

it("a batch's cancel gives each row's own units back once, read from the row's sealed call", async () => {
  const id = await approved([7.25, 1.5, 0.3], 'B');
  expect(await w.redis.hget(amountsKey(), id)).toBe('9050000');
  const before = await total();
  // Pages of one row: each script gives back the row it cancels, and only that row.
  expect(await w.store.executions.cancelQueued(id, { event: 'cancelled' }, 1)).toBe(3);
  expect(await w.redis.hget(amountsKey(), id)).toBe('0');
  expect(await total()).toBe(before - 9_050_000n);
  expect((await w.redis.smembers(w.store.keys.batchGiven(id))).sort()).toEqual([`${id}.1`, `${id}.2`, `${id}.3`]);
  expect(await cancel(id, 'again')).toBe(0);
  expect(await total()).toBe(before - 9_050_000n);
});

it('a record stored before its velocity field gives back what its vote reserved, read from its sealed request', async () => {
  // The vote reserves the subject the app passes for such a record without storing the field
  // (store/lua/vote.lua needs_subject): the field is taken away after the vote to stand for it.
  const single = await approved([2.5], 'R');
  const batch = await approved([1.25, 0.75], 'B');
  for (const id of [single, batch]) await w.redis.hdel(w.store.keys.approval(id), 'velocity');
  const before = await total();
  expect(await cancel(single)).toBe(1);
  expect(await w.redis.zscore(ledgerKey(), single)).toBeNull();
  expect(await total()).toBe(before - 2_500_000n);
  expect(await cancel(batch)).toBe(2);
  expect(await w.redis.hget(amountsKey(), batch)).toBe('0');
  expect(await total()).toBe(before - 4_500_000n);
});

it("a cancel inside the wait releases a single's and a batch's whole reservation, read from the approval", async () => {
  const single = await approved([3.5], 'R');
  const batch = await approved([0.5, 0.25], 'B');
  const before = await total();
  for (const id of [single, batch]) {
    await w.redis.hset(w.store.keys.approval(id), 'runAt', String(Date.now() + 3_600_000));
    const r = await w.store.executions.cancelWaiting(id, { event: 'cancelled', by: APPROVERS[0] as string });
    expect(r.ok).toBe(true);
    expect(await w.redis.zscore(ledgerKey(), id)).toBeNull();
    expect(await w.redis.hget(amountsKey(), id)).toBeNull();
  }
  expect(await total()).toBe(before - 4_250_000n);
});
