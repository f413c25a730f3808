/**
 * A single request cancelled after its approval (the unfreeze's cancel) gives its velocity
 * reservation back in the cancelling script itself, as a waiting approval's cancel does
 * (store/lua/window-cancel.lua): never in a second round trip a worker could die before, which
 * would leave the quorum's +inf reservation counting forever (a second lift finds nothing left to
 * cancel, so it would never give it back).
 */
import { expect, it } from 'vitest';
import { cancelUnsent } from '../../src/app/batch-run.js';
import { approve } from '../../src/app/decide.js';
import { TOTAL_FIELD } from '../../src/store/velocity-lua.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

const w = useWorld('cancel-unsent-release', { VELOCITY_LIMITS: 'ops:USDC=100000/24h' });

const ledgerKey = () => `${w.prefix}:velocity:wal_ops_7f3a:USDC`;

it("a single's cancel gives its whole reservation back in the same script", async () => {
  const id = await sealBatch(w, [7.25], 'R');
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  const amounts = `${ledgerKey()}:amounts`;
  expect(await w.redis.hget(amounts, id)).toBe('7250000');
  const total = BigInt((await w.redis.hget(amounts, TOTAL_FIELD)) ?? '0');
  const n = await cancelUnsent({ ...w.deps, jobs: w.deps.queues }, id, { event: 'cancelled', detail: 'test' });
  expect(n).toBe(1);
  // Read right after that one call: nothing else ran in between.
  expect(await w.redis.zscore(ledgerKey(), id)).toBeNull();
  expect(await w.redis.hget(amounts, id)).toBeNull();
  expect(BigInt((await w.redis.hget(amounts, TOTAL_FIELD)) ?? '0')).toBe(total - 7_250_000n);
  // A second cancel finds nothing and gives nothing back twice.
  expect(await cancelUnsent({ ...w.deps, jobs: w.deps.queues }, id, { event: 'cancelled', detail: 'again' })).toBe(0);
  expect(BigInt((await w.redis.hget(amounts, TOTAL_FIELD)) ?? '0')).toBe(total - 7_250_000n);
});
