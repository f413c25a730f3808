/**
 * Versions: records written before approvals had executions, with their jobs, meet
 * the new worker. An old `approved` record with a live old job runs exactly once; an old
 * `executing` one ends `unknown`, never sent; a job of a newer format is left untouched. The
 * start-up sweep reads the history once per record format.
 */

import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createQueues, type Queues } from '../../src/adapters/jobs/queues.js';
import { startWorkers, type Workers } from '../../src/adapters/jobs/worker.js';
import type { CardRef, Notifier } from '../../src/app/notifier.js';
import { createWorkerApp } from '../../src/app/worker-app.js';
import { createLogger } from '../../src/log.js';
import { RECORD_VERSION } from '../../src/store/migration-sweep.js';
import { transfer, useWorld } from '../app/support.js';
import { sealedOf } from '../support/factories.js';
import { eventually } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

const w = useWorld('migration');
let queues: Queues;
const started: Workers[] = [];
const sink = new LogSink();
const card: CardRef = { channel: 'C0APPROVALS', ts: '1.000' };
const notifier: Notifier = {
  postCard: async () => card,
  findCard: async () => undefined,
  updateCard: async () => {},
  postOutcome: async () => '2.000',
  postNotSent: async () => {},
  postProposal: async () => {},
  findOutcome: async () => undefined,
  confirmPosted: async () => {},
  cardUnpostable: async () => {},
  remind: async () => {},
  coolingNotice: async () => {},
  escalate: async () => {},
  tellRequester: async () => {},
  batchRows: async () => {},
  batchPaused: async () => {},
  batchFinished: async () => {},
  batchProgress: async () => '',
};

/** The record format today's scripts write and migrate to. */
const FORMAT = String(RECORD_VERSION);

/** Writes a request exactly as Rampart stored it before approvals had executions (no `v`, no execution hash). */
async function oldRecord(n: number, amount: number, state: 'approved' | 'executing'): Promise<string> {
  const id = `R-${n}`;
  const call = transfer(amount);
  const sealed = sealedOf(id, call, { display: { chain: 'base' }, reason: 'before the upgrade' });
  const now = sealed.createdAt;
  const p = w.prefix;
  await w.redis.hset(`${p}:req:${id}`, {
    frozen: JSON.stringify(sealed),
    state,
    requester: sealed.requester,
    required: '1',
    expiresAt: String(sealed.expiresAt),
    votes: JSON.stringify([{ user: 'U0APPROVER1', at: now }]),
    kind: 'transfer',
    decidedBy: 'U0APPROVER1',
    decidedAt: String(now),
    card: JSON.stringify(card),
    ...(state === 'executing' ? { execToken: 'token-of-a-dead-worker' } : {}),
  });
  await w.redis.rpush(`${p}:req:${id}:history`, JSON.stringify({ at: now, event: 'requested' }));
  await w.redis.zadd(`${p}:req:recent`, now, id);
  await w.redis.zadd(`${p}:req:state:${state}`, now, id);
  await w.redis.sadd(`${p}:req:open`, id);
  return id;
}

/** A worker on the world's store and the real queues, reconciling every 200 ms. */
function start(name: string): Workers {
  const log = createLogger({ level: 'info' }, sink);
  const app = createWorkerApp({
    service: w.service,
    store: w.store,
    registry: w.deps.registry,
    controls: w.controls,
    jobs: queues,
    notifier,
    log: log.child({ component: 'worker', worker: name }),
    approvalsChannel: 'C0APPROVALS',
    now: Date.now,
    workerName: name,
    reminders: {
      approvers: { members: async () => [] },
      escalateTo: { members: async () => [] },
      reminderAfterMs: undefined,
      reminderMax: 0,
    },
  });
  const workers = startWorkers({
    app,
    redis: w.redis,
    prefix: w.prefix,
    log,
    now: Date.now,
    name,
    reconcileEveryMs: 200,
  });
  started.push(workers);
  return workers;
}

beforeAll(async () => {
  queues = createQueues(w.redis, w.prefix, createLogger({ level: 'silent' }));
});
afterAll(async () => {
  await Promise.all(started.map((workers) => workers.close()));
  await queues.close();
});

it('runs an old approved record with its live old-format job exactly once, and settles an old executing one as unknown', async () => {
  const approved = await oldRecord(501, 6.01, 'approved');
  const executing = await oldRecord(502, 6.02, 'executing');
  // The old job: data `{ requestId }`, job id = the request id.
  await queues.execute.add('execute', { requestId: approved }, { jobId: approved });
  // A job written by a newer Rampart.
  await queues.execute.add('execute', { v: 99, executionId: 'R-503.1', attempt: 1 }, { jobId: 'R-503.1-t1' });

  const workers = start('first');

  await eventually(
    async () => ((await w.store.get(approved))?.state === 'succeeded' ? true : undefined),
    10_000,
    'old approved to run',
  );
  await eventually(
    async () => ((await w.store.get(executing))?.state === 'unknown' ? true : undefined),
    10_000,
    'old executing to settle',
  );
  // Two more reconciler rounds: still once.
  await workers.reconcileNow();
  await workers.reconcileNow();
  expect(w.received(6.01)).toBe(1);
  expect(w.received(6.02)).toBe(0);

  const a = await w.store.get(approved);
  expect(a).toMatchObject({ approvalState: 'done', executionCount: 1 });
  expect(a?.executions[0]).toMatchObject({ id: `${approved}.1`, state: 'succeeded', tries: 1, job: approved });
  expect(await w.redis.hmget(`${w.prefix}:req:${approved}`, 'v', 'shape')).toEqual([FORMAT, 'single']);
  expect((await w.store.get(executing))?.outcome?.message).toContain('may or may not');

  // The newer job is left untouched: delayed, not failed, no attempt used; logged once.
  await eventually(
    async () => ((await queues.execute.getJobState('R-503.1-t1')) === 'delayed' ? true : undefined),
    5000,
    'newer job delayed',
  );
  const newer = await queues.execute.getJob('R-503.1-t1');
  expect(newer?.attemptsMade).toBe(0);
  expect(sink.lines.filter((l) => l.includes('newer format'))).toHaveLength(1);
});

it('a later worker start reads no history; an old record written after the sweep is migrated by the script that runs it', async () => {
  // The first test's worker swept the history cleanly. Count the sweep's reads of it from here on.
  const reads = vi.spyOn(w.redis, 'zrange');
  const historyReads = () => reads.mock.calls.filter(([key]) => key === `${w.prefix}:req:recent`).length;
  const second = start('second');
  await second.reconcileNow(); // after its sweep
  expect(historyReads()).toBe(0);
  expect(await w.redis.get(`${w.prefix}:migrated`)).toBe(FORMAT);

  // An old web process still serving during the deploy approves with an old record and an old job.
  const late = await oldRecord(512, 6.12, 'approved');
  await queues.execute.add('execute', { requestId: late }, { jobId: late });
  await eventually(
    async () => ((await w.store.get(late))?.state === 'succeeded' ? true : undefined),
    10_000,
    'late old record to run',
  );
  expect(w.received(6.12)).toBe(1);
  expect(await w.redis.hmget(`${w.prefix}:req:${late}`, 'v', 'shape')).toEqual([FORMAT, 'single']);
  expect((await w.store.get(late))?.executions[0]).toMatchObject({ id: `${late}.1`, state: 'succeeded' });
  expect(historyReads()).toBe(0);
  reads.mockRestore();
});

it('a sweep that meets a record it cannot migrate leaves no marker; a newer record format sweeps again', async () => {
  const marker = `${w.prefix}:migrated`;
  // The marker of an older record format: this code sweeps again.
  await w.redis.set(marker, '1');
  // Old records it cannot migrate: one with no state to migrate from, one whose sealed call is not JSON.
  const broken = ['R-521', 'R-522'];
  await w.redis.hset(`${w.prefix}:req:R-521`, { requester: 'U0REQUESTER' });
  await w.redis.hset(`${w.prefix}:req:R-522`, { state: 'pending', frozen: 'not json' });
  for (const id of broken) await w.redis.zadd(`${w.prefix}:req:recent`, Date.now(), id);

  expect(await w.store.migrate()).toMatchObject({ swept: true, left: 2 });
  expect(await w.redis.get(marker)).toBe('1');
  expect(await w.redis.hexists(`${w.prefix}:req:R-521`, 'v')).toBe(0);

  // Once they are gone, a sweep completes, marks this format, and the next one reads nothing.
  for (const id of broken) {
    await w.redis.del(`${w.prefix}:req:${id}`);
    await w.redis.zrem(`${w.prefix}:req:recent`, id);
  }
  const none = { rekeyed: 0, dropped: 0 };
  expect(await w.store.migrate()).toEqual({ swept: true, migrated: 0, left: 0, payees: none });
  expect(await w.redis.get(marker)).toBe(FORMAT);
  expect(await w.store.migrate()).toEqual({ swept: false, migrated: 0, left: 0, payees: none });
});
