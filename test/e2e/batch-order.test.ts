/**
 * Batches of one wallet run in approval order, through signed Slack clicks:
 * two files on the same wallet, the second approved first — all of its rows are called before any
 * row of the first, never interleaved; each row exactly once.
 */
import { expect, it } from 'vitest';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { click, quiescent, serviceCalls } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('batch-order', { BATCH_RATE: 'off' });

it('runs the batch approved first to its end before the other batch of the same wallet starts', async () => {
  const first = await submitBatchFile(h, transfersCsv(addresses(6, 31), [1, 2, 3, 4, 5, 6]));
  const second = await submitBatchFile(h, transfersCsv(addresses(6, 32), [11, 12, 13, 14, 15, 16]));
  // The later file is approved first: it takes the wallet's turn.
  await click(h, PEOPLE.approver1, second, 'request_approve');
  await click(h, PEOPLE.approver1, first, 'request_approve');
  expect((await waitForApproval(h, second, 'done')).counts).toMatchObject({ succeeded: 6 });
  expect((await waitForApproval(h, first, 'done')).counts).toMatchObject({ succeeded: 6 });
  await quiescent(h);
  const amounts = serviceCalls(h, '/transfer').map((c) => (c.body as { amount: number }).amount);
  expect(amounts).toEqual([11, 12, 13, 14, 15, 16, 1, 2, 3, 4, 5, 6]);
});
