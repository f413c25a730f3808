/**
 * A worker process SIGKILLed mid-batch. At most one row ends `unknown` (the one it was
 * calling, which pauses the batch); no row is sent twice; resumed, the rest run once each.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { addresses, batchClick, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { envFor, eventually, PEOPLE } from '../support/harness.js';
import { click, quiescent } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';
import { spawnWorker, workerReady } from '../support/worker-process.js';

const h = useHarness('batch-killed', { ROLE: 'web', BATCH_RATE: 'off' });
let child: ChildProcess | undefined;
// Registered after the harness, so the child worker stops before the harness closes.
afterAll(() => {
  child?.kill('SIGKILL');
});

it('leaves at most one row unknown and sends no row twice', async () => {
  // The web role posts the batch; the only worker is a separate process (it posts the card too).
  const env = envFor(h.prefix, h.sandbox, h.fake, { ROLE: 'worker', BATCH_RATE: 'off' });
  child = spawnWorker(env);
  await workerReady(child);
  const receivers = addresses(12, 4);
  const id = await submitBatchFile(
    h,
    transfersCsv(
      receivers,
      receivers.map((_, i) => 20 + i),
    ),
  );
  // Slow answers, so the kill most likely lands while a row is between its start and its answer.
  h.sandbox.faults.latency(150);
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await eventually(
    () => (h.sandbox.state.received.filter((r) => r.path === '/transfer').length >= 4 ? true : undefined),
    20_000,
    'four rows sent',
  );
  child.kill('SIGKILL');
  await once(child, 'exit');
  child = undefined;
  h.sandbox.faults.latency(0);

  await h.startAnother(
    { ROLE: 'worker', BATCH_RATE: 'off' },
    { worker: { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 300, name: 'restarted' } },
  );
  const settled = await waitForApproval(h, id, ['paused', 'done'], 20_000);
  if (settled.approvalState === 'paused') {
    expect(settled.counts.unknown).toBe(1);
    await batchClick(h, PEOPLE.approver2, id, 'batch_resume');
  }
  const done = await waitForApproval(h, id, 'done', 30_000);
  await quiescent(h);
  expect(done.counts.unknown).toBeLessThanOrEqual(1);
  expect(done.counts.succeeded + done.counts.unknown).toBe(12);
  const sent = h.sandbox.state.received
    .filter((r) => r.path === '/transfer')
    .map((r) => (r.body as { receiver: string }).receiver);
  // Every row at most once at the service; each one that succeeded exactly once.
  expect(new Set(sent).size).toBe(sent.length);
  expect(sent.length).toBeGreaterThanOrEqual(done.counts.succeeded);
});
