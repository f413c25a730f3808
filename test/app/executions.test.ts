/**
 * Through app/ only: an approval owns its executions; each starts only inside its
 * queued → executing script and runs at most once; the approval ends `done` with counts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { approve } from '../../src/app/decide.js';
import { EXECUTING_CARD_AFTER_MS, executeOne } from '../../src/app/execute-one.js';
import { settleStalled } from '../../src/app/executions/run.js';
import { approvalHashOf, cardHash, emptyCounts, wakeRunId } from '../../src/domain/approval.js';
import { createLogger } from '../../src/log.js';
import { ServiceClient } from '../../src/service/client.js';
import { RECEIVER_EVM } from '../support/factories.js';
import { APPROVERS, transfer, useWorld } from './support.js';

const w = useWorld('executions');
let deadPort: number;
beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});

it('one approval with three executions: each called exactly once, the approval done with counts', async () => {
  const calls = [transfer(1.01), transfer(1.02), transfer(1.03)];
  const id = await w.submit(calls);
  const posted = await w.store.get(id);
  expect(posted).toMatchObject({ state: 'pending', approvalState: 'pending', executionCount: 3 });
  expect(posted?.counts).toEqual({ ...emptyCounts(), queued: 3 });
  // The card shows the approvalHash; each execution keeps its full sealHash.
  expect(posted?.sealed.hash).toBe(cardHash(approvalHashOf(calls)));
  expect(posted?.executions.map((e) => [e.id, e.state, e.sealHash.length])).toEqual([
    [`${id}.1`, 'queued', 64],
    [`${id}.2`, 'queued', 64],
    [`${id}.3`, 'queued', 64],
  ]);

  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  for (const n of [1, 2, 3]) expect(await executeOne(w.exec(), `${id}.${n}`)).toBe('succeeded');

  expect([w.received(1.01), w.received(1.02), w.received(1.03)]).toEqual([1, 1, 1]);
  const done = await w.store.get(id);
  expect(done).toMatchObject({ approvalState: 'done', state: 'succeeded' });
  expect(done?.counts).toEqual({ ...emptyCounts(), succeeded: 3 });
  expect(done?.executions.map((e) => e.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  expect(await w.store.openIds()).not.toContain(id);

  // A second run of a finished execution calls nothing.
  expect(await executeOne(w.exec(), `${id}.2`)).toBe('skipped');
  expect(w.received(1.02)).toBe(1);
});

it('refuses to start while the approval is pending and while Rampart is frozen: nothing called', async () => {
  const id = await w.submit([transfer(2.01)]);
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('skipped');
  expect((await w.store.get(id))?.executions[0]?.state).toBe('queued');

  expect((await approve(w.deps, id, APPROVERS[1] as string)).kind).toBe('approved');
  await w.controls.setFreeze({ by: APPROVERS[0] as string, at: Date.now(), reason: 'drill' });
  try {
    expect(await executeOne(w.exec(), `${id}.1`)).toBe('held');
    expect(await w.store.get(id)).toMatchObject({ state: 'approved', approvalState: 'approved' });
    expect((await w.store.get(id))?.executions[0]).toMatchObject({ state: 'queued', tries: 0 });
  } finally {
    await w.redis.del(w.controls.freezeKey);
  }
  expect(w.received(2.01)).toBe(0);
  expect(await executeOne(w.exec(), `${id}.1`)).toBe('succeeded');
  expect(w.received(2.01)).toBe(1);
});

it('a call never sent goes back to queued with a new try (fresh job id), and runs once later', async () => {
  const id = await w.submit([transfer(3.01)]);
  await approve(w.deps, id, APPROVERS[0] as string);
  const dead = new ServiceClient({ baseUrl: `http://127.0.0.1:${deadPort}`, apiKey: 'k' });
  try {
    expect(await executeOne(w.exec(dead), `${id}.1`, { jobId: `${id}.1-t1` })).toBe('retry');
  } finally {
    await dead.close();
  }
  const back = await w.store.get(id);
  expect(back).toMatchObject({ state: 'approved', approvalState: 'running' });
  expect(back?.executions[0]).toMatchObject({ state: 'queued', tries: 1 });
  // The quorum's wake is in Redis (the vote script's); the retry is a job of its own.
  expect(w.tries.filter((t) => t.id === `${id}.1`)).toEqual([{ id: `${id}.1`, attempt: 2, delayMs: 2000 }]);
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: `${id}.1-t2` })).toBe('succeeded');
  expect(w.received(3.01)).toBe(1);
  expect((await w.store.get(id))?.executions[0]).toMatchObject({ state: 'succeeded', tries: 2, job: `${id}.1-t2` });
});

it('an execution found executing by the next try ends unknown and is never sent; one still running is left alone', async () => {
  const id = await w.submit([transfer(4.01)]);
  await approve(w.deps, id, APPROVERS[0] as string);
  // A worker started it and is still on the call: another try must not judge it.
  const started = await w.store.executions.start(`${id}.1`, 'busy-worker', `${id}.1-t1`);
  expect(started.token).toBeDefined();
  w.running.add(`${id}.1-t1`);
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: `${id}.1-t2` })).toBe('skipped');
  expect((await w.store.get(id))?.state).toBe('executing');
  // That worker crashed mid-call: the next try finds it executing with no live job.
  w.running.delete(`${id}.1-t1`);
  expect(await executeOne(w.exec(), `${id}.1`, { jobId: `${id}.1-t2` })).toBe('unknown');
  const record = await w.store.get(id);
  expect(record).toMatchObject({ state: 'unknown', approvalState: 'done' });
  expect(record?.counts).toEqual({ ...emptyCounts(), unknown: 1 });
  expect(w.received(4.01)).toBe(0);
  expect(w.notified.filter((n) => n.requestId === id).map((n) => n.kind)).toContain('unknown');
});

it('a failed or stalled job settles only what it started: a run of a wake or of another job still holding it is left alone', async () => {
  const id = await w.submit([transfer(4.02)]);
  await approve(w.deps, id, APPROVERS[0] as string);
  // A wake's run holds it (its worker's lease lives); the quorum's look had also queued try 1.
  const run = wakeRunId(`${id}.1`, 'a1b2c3d4a1b2c3d4', 1);
  expect((await w.store.executions.start(`${id}.1`, 'busy-worker', run)).token).toBeDefined();
  w.running.add(run);
  const { jobs, log, store } = w.exec();
  // Try 1's job died waiting for a slot: BullMQ fails it, and its handler asks to settle.
  expect(await settleStalled({ store, jobs, log }, `${id}.1`, `${id}.1-t1`)).toBe(false);
  expect((await w.store.get(id))?.state).toBe('executing');
  // The run's own end settles it.
  w.running.delete(run);
  expect(await settleStalled({ store, jobs, log }, `${id}.1`, run)).toBe(true);
  expect((await w.store.get(id))?.state).toBe('unknown');
});

it('a quick call refreshes its card once, with the outcome; a slow one shows "executing" while it waits', async () => {
  const kinds = (id: string) => w.notified.filter((n) => n.requestId === id).map((n) => n.kind);
  const quick = await w.submit([transfer(5.01)]);
  await approve(w.deps, quick, APPROVERS[0] as string);
  const before = kinds(quick).length;
  expect(await executeOne(w.exec(), `${quick}.1`)).toBe('succeeded');
  await new Promise((r) => setTimeout(r, EXECUTING_CARD_AFTER_MS + 100));
  // No "executing" refresh raced the call or its outcome: the outcome's notice is the only one.
  expect(kinds(quick).slice(before)).toEqual(['outcome']);

  // The service holds the call open past the threshold (applied, then no answer until the deadline).
  const slow = await w.submit([transfer(5.02)]);
  await approve(w.deps, slow, APPROVERS[0] as string);
  w.sandbox.faults.hangAfterApply('/transfer');
  const patient = new ServiceClient({
    baseUrl: w.sandbox.url,
    apiKey: 'k',
    connectTimeoutMs: 200,
    responseTimeoutMs: EXECUTING_CARD_AFTER_MS + 400,
  });
  const from = kinds(slow).length;
  expect(await executeOne(w.exec(patient), `${slow}.1`)).toBe('unknown');
  expect(kinds(slow).slice(from)).toEqual(['card', 'unknown']);
});

it('an execution its start script cancels is logged with the cancel code, in words that fit every such check', async () => {
  const added = await w.store.book.add(
    [{ name: 'Logged', chain: 'base', address: RECEIVER_EVM, wallets: '*' }],
    { addedBy: 'U0ADDER', approvedBy: APPROVERS[0] as string, requestId: 'R-0' },
    0,
  );
  if (!added.ok) throw new Error('entry not added');
  const id = await w.submit([transfer(1.31)]);
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  await w.store.book.remove(added.ids[0] ?? '', APPROVERS[0] as string);
  const lines: string[] = [];
  const log = createLogger({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  expect(await executeOne({ ...w.exec(), log }, `${id}.1`)).toBe('cancelled');
  const logged = lines.map((l) => JSON.parse(l) as { msg: string; code?: string; executionId?: string });
  expect(logged.map(({ msg, code, executionId }) => ({ msg, code, executionId }))).toEqual([
    { msg: 'execute: cancelled by its start check; nothing called', code: 'entry_removed', executionId: `${id}.1` },
  ]);
  expect(w.received(1.31)).toBe(0);
});
