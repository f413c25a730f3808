/**
 * Redis stalling mid-batch: a private redis-server is paused with
 * DEBUG SLEEP twice while a 20-row batch runs. Nothing is sent twice, at most one row ends
 * unknown (which pauses the batch; resumed, the rest run once), and every row ends final.
 */
import { expect, it } from 'vitest';
import { addresses, batchClick, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { eventually, PEOPLE } from '../support/harness.js';
import { useDebugRedis } from '../support/redis-servers.js';
import { click, quiescent, serviceCalls } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const { server, admin } = useDebugRedis();
const stall = async (seconds: number) => void (await admin.call('DEBUG', 'SLEEP', String(seconds)));
// A short service time-out: a row whose answer is held up is unknown, never re-sent.
const h = useHarness('batch-stall', () => ({ REDIS_URL: server.url, BATCH_RATE: 'off' }));

it('sends no row twice and leaves at most one unknown when Redis stalls twice mid-batch', async () => {
  const amounts = Array.from({ length: 20 }, (_, i) => 100 + i);
  const id = await submitBatchFile(h, transfersCsv(addresses(20, 41), amounts));
  await click(h, PEOPLE.approver1, id, 'request_approve');
  const calls = () => serviceCalls(h, '/transfer').length;
  await eventually(() => (calls() >= 3 ? true : undefined), 20_000, 'the batch to be running');
  await stall(2);
  await eventually(() => (calls() >= 10 ? true : undefined), 30_000, 'rows after the first stall');
  await stall(2);
  const settled = await waitForApproval(h, id, ['done', 'paused'], 40_000);
  expect(settled.counts.unknown).toBeLessThanOrEqual(1);
  if (settled.approvalState === 'paused') {
    await batchClick(h, PEOPLE.approver2, id, 'batch_resume');
    await waitForApproval(h, id, 'done', 40_000);
  }
  await quiescent(h);
  const done = await h.rampart.deps.store.get(id);
  expect(done?.counts.queued).toBe(0);
  expect(done?.counts.executing).toBe(0);
  expect(done?.counts.unknown).toBeLessThanOrEqual(1);
  const sent = serviceCalls(h, '/transfer').map((c) => (c.body as { amount: number }).amount);
  // Nothing twice; every row that succeeded was called exactly once.
  expect(new Set(sent).size).toBe(sent.length);
  expect(sent.length).toBeGreaterThanOrEqual(done?.counts.succeeded ?? 0);
  for (const a of sent) expect(amounts).toContain(a);
});
