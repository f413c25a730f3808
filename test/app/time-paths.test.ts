/**
 * The paths that make a start try, inside an approval's wait (runAt an hour ahead on Redis's
 * clock): the reconciler leaves the approval alone, and a batch resumed inside the window is
 * refused not-yet by its start script; nothing reaches the service and no try is used.
 */
import { expect, it } from 'vitest';
import type { Queues } from '../../src/adapters/jobs/queues.js';
import { resumeBatch } from '../../src/app/batch-control.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { reconcile } from '../../src/app/executions/reconcile.js';
import { APPROVERS, sealBatch, transfer, useWorld } from './support.js';

const w = useWorld('time-paths');

const A1 = APPROVERS[0] as string;

/** Approved, then its runAt an hour ahead of Redis's clock (as the vote sets it for DELAY=1h). */
async function waiting(id: string): Promise<void> {
  await approve(w.deps, id, A1);
  await w.redis.hset(w.store.keys.approval(id), 'runAt', String((await w.store.redisNow()) + 3_600_000));
}

it('a reconciler pass inside the window queues no try; the start refuses not-yet and uses none', async () => {
  const id = await w.submit([transfer(31.5)]);
  await waiting(id);
  w.tries.length = 0;
  await reconcile({ store: w.store, queues: w.deps.queues as Queues, log: w.deps.log, now: Date.now });
  expect(w.tries.filter((t) => t.id === `${id}.1`)).toEqual([]);
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('not-yet');
  expect(w.received(31.5)).toBe(0);
  expect((await w.store.get(id))?.executions[0]).toMatchObject({ state: 'queued', tries: 0 });
  // Once runAt has passed the reconciler gives it its try, and it runs once.
  await w.redis.hset(w.store.keys.approval(id), 'runAt', String((await w.store.redisNow()) - 1));
  await reconcile({ store: w.store, queues: w.deps.queues as Queues, log: w.deps.log, now: Date.now });
  expect(w.tries.filter((t) => t.id === `${id}.1`)).toHaveLength(1);
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  expect(w.received(31.5)).toBe(1);
});

it('a batch resumed inside the window starts no row before runAt', async () => {
  const id = await sealBatch(w, [12.01, 12.02]);
  await waiting(id);
  // Paused as an unknown row or a failed funding check would leave it, then resumed by an approver.
  await w.redis.hset(w.store.keys.approval(id), 'state', 'paused');
  w.tries.length = 0;
  expect((await resumeBatch(w.deps, id, A1)).kind).toBe('resumed');
  expect(w.tries.map((t) => t.id)).toEqual([`${id}.1`]);
  const deps = { ...w.exec(), batch: { pauseAfterFailures: 3, holdLimitMs: 86_400_000 } };
  expect(await executeOne(deps, `${id}.1`)).toBe('not-yet');
  expect(w.received(12.01)).toBe(0);
  expect((await w.store.get(id))?.counts).toMatchObject({ queued: 2, executing: 0 });
});
