/**
 * A 1,000-row offramp file goes from /batch to one card, one approval and a
 * receipt of 1,000 rows in the thread; every row reaches the sandbox exactly once
 * (BATCH_RATE=off keeps it short).
 */

import { beforeAll, expect, it } from 'vitest';
import { openBatchModal, threadFile, waitForApproval } from '../support/batches.js';
import { buildBeneficiary } from '../support/factories.js';
import { eventually, PEOPLE } from '../support/harness.js';
import { click, quiescent } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const ROWS = 1_000;
const BENEFICIARIES = 10;
const h = useHarness('batch-thousand', { BATCH_RATE: 'off' });
beforeAll(async () => {
  for (let i = 0; i < BENEFICIARIES; i++) {
    const id = `ben_thousand${i}`;
    h.sandbox.state.beneficiaries.set(id, { id, identityId: 'idn_1', currency: 'NGN', details: {} });
    const people = { createdBy: PEOPLE.requester, approvedBy: PEOPLE.approver1 };
    await h.rampart.deps.registry.addBeneficiary(
      buildBeneficiary(id, `Vendor ${i}`, { identityName: 'Vendor', holderName: 'VENDOR', ...people }),
    );
  }
});

// Row k (spreadsheet row k + 2) pays beneficiary k % 10, by label for even k and by id for odd k.
const amountOf = (k: number) => 1 + (k % 7) + (k % 100) / 100;
const csv = `beneficiary,amount,reference\n${Array.from(
  { length: ROWS },
  (_, k) =>
    `${k % 2 ? `ben_thousand${k % BENEFICIARIES}` : `Vendor ${k % BENEFICIARIES}`},${amountOf(k).toFixed(2)},PAY-${k}`,
).join('\n')}\n`;

async function submitOfframps(): Promise<string> {
  const view = await openBatchModal(h);
  const file = h.fake.pickFile(PEOPLE.requester, 'payroll.csv', new TextEncoder().encode(csv));
  const r = await h.driver.submitView(PEOPLE.requester, view, {
    kind: 'offramps',
    wallet: 'ops',
    asset: 'base:usdc',
    file,
    reason: 'November payroll',
  });
  expect((r.body as { response_action?: string } | undefined)?.response_action).toBeUndefined();
  return eventually(
    async () => (await h.rampart.deps.store.recentIds(5)).find((x) => x.startsWith('B-')),
    20_000,
    'the batch',
  );
}

it('1,000 offramp rows: one card, one approval, a 1,000-row receipt, each row once at the sandbox', async () => {
  const id = await submitOfframps();
  const cards = await eventually(
    () => {
      const c = h.fake.messages('C0APPROVALS').filter((m) => !m.thread_ts && JSON.stringify(m.blocks).includes(id));
      return c.length > 0 ? c : undefined;
    },
    20_000,
    'the card',
  );
  expect(cards).toHaveLength(1);
  await click(h, PEOPLE.approver1, id, 'request_approve');
  const done = await waitForApproval(h, id, 'done', 280_000);
  expect(done.counts).toMatchObject({ succeeded: ROWS, failed: 0, unknown: 0, cancelled: 0 });
  const receipt = await eventually(() => threadFile(h, id, `${id}-receipt.csv`), 30_000, 'the receipt');
  await quiescent(h);

  const lines = receipt.trim().split('\r\n');
  expect(lines).toHaveLength(ROWS + 1);
  expect(new Set(lines.slice(1).map((l) => l.split(',')[0]))).toEqual(
    new Set(Array.from({ length: ROWS }, (_, k) => String(k + 2))),
  );
  expect(lines.slice(1).every((l) => l.includes(',initiated,'))).toBe(true);

  // At the sandbox: exactly one offramp per row, with the row's beneficiary and amount.
  const sent = h.sandbox.state.offramps.map((o) => `${o.beneficiary_id} ${o.amount}`);
  expect(sent).toHaveLength(ROWS);
  expect(sent).toEqual(
    Array.from({ length: ROWS }, (_, k) => `ben_thousand${k % BENEFICIARIES} ${Number(amountOf(k).toFixed(2))}`),
  );
  expect(new Set(h.sandbox.state.offramps.map((o) => o.reference)).size).toBe(ROWS);
  expect(
    h.fake.messages('C0APPROVALS').filter((m) => !m.thread_ts && JSON.stringify(m.blocks).includes(id)),
  ).toHaveLength(1);
}, 400_000);
