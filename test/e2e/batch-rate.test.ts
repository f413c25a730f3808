/**
 * BATCH_RATE paces all batch rows together across processes (a GCRA limiter in Redis, admitted
 * inside the start script: store/lua/includes/gcra.lua); a row waiting for it is delayed, not started.
 */
import { beforeAll, expect, it } from 'vitest';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { click, quiescent } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('batch-rate', { BATCH_RATE: '4/s' });
beforeAll(async () => {
  // A second worker process-equivalent shares the same limiter.
  await h.startAnother({ ROLE: 'worker' }, { worker: { name: 'second-worker' } });
});

it('6 rows at 4/s take at least 1.25 s between the first and the last call, even with two workers', async () => {
  const receivers = addresses(6, 5);
  const id = await submitBatchFile(h, transfersCsv(receivers, [1, 2, 3, 4, 5, 6]));
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForApproval(h, id, 'done', 20_000);
  await quiescent(h);
  const at = h.sandbox.state.received.filter((r) => r.path === '/transfer').map((r) => Date.parse(r.at));
  expect(at).toHaveLength(6);
  // Five admissions 250 ms apart: the span holds whatever the scheduling. Each gap is measured
  // where the call arrived, so one row delayed on its way (a loaded machine) shortens the next gap;
  // without the limiter the rows follow each other within milliseconds.
  expect((at[5] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(1_200);
  for (let i = 1; i < at.length; i++) expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeGreaterThanOrEqual(100);
});
