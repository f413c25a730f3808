import { expect, it } from 'vitest';
import { countingRedis } from '../../bench/counting-redis.js';
import { createQueues } from '../../src/adapters/jobs/queues.js';
import { stopBatch } from '../../src/app/batch-control.js';
import { executeOne } from '../../src/app/execute-one.js';
import { tryJobId } from '../../src/domain/approval.js';
import { createLogger } from '../../src/log.js';
import type { ServiceClient } from '../../src/service/client.js';
import { Registry } from '../../src/store/registry.js';
import { RequestStore } from '../../src/store/requests.js';
import { REDIS_URL } from '../support/harness.js';
import { approvedBatch as approvedBatchOf, REQUESTER, useWorld } from './support.js';

const w = useWorld('batch-row-path');

const approvedBatch = (amounts: number[]) => approvedBatchOf(w, amounts);

const noticesFor = (id: string, from: number) => w.notified.slice(from).filter((n) => n.requestId === id);

it("each row's end queues the next row's try; the card only when the batch began and when it is done", async () => {
  const id = await approvedBatch([5.01, 5.02, 5.03, 5.04, 5.05]);
  const notices = w.notified.length;
  const tries = w.tries.length;
  for (let n = 1; n <= 5; n++) expect(await executeOne(w.exec(), `${id}.${n}`)).toBe('succeeded');
  expect(w.tries.slice(tries).filter((t) => t.id.startsWith(`${id}.`))).toEqual(
    [2, 3, 4, 5].map((n) => ({ id: `${id}.${n}`, attempt: 1, delayMs: undefined })),
  );
  const kinds = noticesFor(id, notices).map((n) => n.kind);
  // Row 1 moved the batch approved → running, row 5 made it done; rows in between changed
  // only counts: one progress job, which draws whatever is current when it runs.
  expect(kinds.filter((k) => k === 'card')).toHaveLength(2);
  expect(kinds.filter((k) => k === 'progress')).toHaveLength(1);
  expect((await w.store.get(id))?.approvalState).toBe('done');
});

it('a row that pauses its batch queues no next try, and the card shows the pause', async () => {
  const id = await approvedBatch([6.01, 6.02, 6.03]);
  const notices = w.notified.length;
  const tries = w.tries.length;
  const deps = { ...w.exec(), batch: { pauseAfterFailures: 1, holdLimitMs: 86_400_000 } };
  w.sandbox.faults.failNext('/transfer', 1, { status: 400 });
  expect(await executeOne(deps, `${id}.1`)).toBe('failed');
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  expect(w.tries.slice(tries).filter((t) => t.id.startsWith(`${id}.`))).toEqual([]);
  expect(noticesFor(id, notices).map((n) => n.kind)).toEqual(['card', 'card']);
  expect(w.received(6.02)).toBe(0);
  // Stopped: the wallet's turn is free for the next test's batch.
  expect((await stopBatch(w.deps, id, REQUESTER)).kind).toBe('stopped');
});

it('a row ending while its batch is paused redraws the card (it prints the counts) and queues no next try', async () => {
  const id = await approvedBatch([8.01, 8.02]);
  const notices = w.notified.length;
  const tries = w.tries.length;
  // Paused by another path while row 1 is between its compare-and-set and its answer.
  const service = Object.assign(Object.create(w.service) as ServiceClient, {
    transfer: async (body: Parameters<ServiceClient['transfer']>[0]) => {
      expect((await w.store.batches.pause(id, 'paused for the test')).ok).toBe(true);
      return w.service.transfer(body);
    },
  });
  expect(await executeOne(w.exec(service), `${id}.1`)).toBe('succeeded');
  expect((await w.store.get(id))?.approvalState).toBe('paused');
  expect(noticesFor(id, notices).map((n) => n.kind)).toEqual(['card', 'card']);
  expect(w.tries.slice(tries).filter((t) => t.id.startsWith(`${id}.`))).toEqual([]);
  expect((await stopBatch(w.deps, id, REQUESTER)).kind).toBe('stopped');
});

it('a row costs at most 4 sequential Redis round trips: start, finish, then its try beside its notices', async () => {
  const id = await approvedBatch(Array.from({ length: 8 }, (_, i) => 7 + (i + 1) / 100));
  const { redis, tally, reset } = countingRedis(REDIS_URL);
  const log = createLogger({ level: 'silent' });
  const store = new RequestStore(redis, w.prefix);
  // Real BullMQ queues on the counted connection, under a prefix no worker takes.
  const jobs = createQueues(redis, `${w.prefix}:counted`, log);
  const deps = { ...w.exec(), store, registry: new Registry(redis, w.prefix), jobs };
  try {
    // Row 1 loads the scripts (EVALSHA's first NOSCRIPT): counted from row 2 on.
    expect(await executeOne(deps, `${id}.1`, { jobId: 'j1' })).toBe('succeeded');
    reset();
    for (let n = 2; n <= 7; n++) expect(await executeOne(deps, `${id}.${n}`, { jobId: `j${n}` })).toBe('succeeded');
    expect(tally.roundTrips / 6).toBeLessThanOrEqual(4);
    // The last row ends the batch and hands its wallet's turn on: once per batch, not counted.
    expect(await executeOne(deps, `${id}.8`, { jobId: 'j8' })).toBe('succeeded');
    // Each next try was queued once, in BullMQ itself.
    for (let n = 2; n <= 8; n++) expect(await jobs.execute.getJob(tryJobId(`${id}.${n}`, 1))).toBeDefined();
  } finally {
    await jobs.close();
    await redis.quit();
  }
});
