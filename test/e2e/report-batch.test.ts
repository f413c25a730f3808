/**
 * A batch's rows count in the report — each `B-n.k` execution is a payment with its own
 * amount, destination and day (outflow, totals, ten largest, first-time destinations, CSV) — and
 * the batch's describing call (its total, never sent) does not count again.
 */
import { expect, it } from 'vitest';
import { loadReport } from '../../src/app/report.js';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { click } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('report-batch', { BATCH_RATE: 'off' });

it('counts every batch row as its own payment', async () => {
  const receivers = addresses(3, 7);
  const id = await submitBatchFile(h, transfersCsv(receivers, [4, 2.5, 30]));
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForApproval(h, id, 'done');
  const view = await loadReport({ store: h.rampart.deps.store, rules: [], now: Date.now }, 7, 'UTC');
  const ids = view.payments.map((p) => p.id).sort();
  expect(ids).toEqual([`${id}.1`, `${id}.2`, `${id}.3`]);
  expect(view.report.totals).toEqual({ 'transfer succeeded': 3 });
  expect(view.report.outflow.USDC?.perDay.reduce((a, b) => a + b, 0n)).toBe(36_500_000n);
  expect(view.report.largest.map((p) => [p.id, p.destination])).toEqual([
    [`${id}.3`, receivers[2]],
    [`${id}.1`, receivers[0]],
    [`${id}.2`, receivers[1]],
  ]);
  expect(view.report.firstTime.map((p) => p.destination).sort()).toEqual([...receivers].sort());
  expect(view.report.approval?.count).toBe(1); // one approval for the whole batch
  expect(view.csv).toContain(`${id}.2,transfer,succeeded,ops,USDC,2.5,${receivers[1]}`);
});
