/**
 * A batch's progress: a running batch's card is redrawn on state changes only, never per row;
 * its thread holds one progress message, updated at most every 3 s (all batches together at
 * most 20 chat.update a minute), which ends showing every row. With it, the batch metrics, and
 * the audit export and webhook carrying the batch's rows.
 */
import { request } from 'undici';
import { expect, it } from 'vitest';
import { exportAudit } from '../../src/app/audit-export.js';
import { PROGRESS_EVERY_MS } from '../../src/app/notices/batch-progress.js';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { startAuditReceiver } from '../support/audit-receiver.js';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import { click, currentCard, quiescent, threadOf } from '../support/requests.js';
import { useHarness, useStarted } from '../support/use-harness.js';

const TOKEN = 'a-metrics-token-16+';

/** One metric's samples from GET /metrics, as label text → value. */
async function scrape(name: string): Promise<Map<string, number>> {
  const res = await request(`http://127.0.0.1:${h.rampart.port}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const out = new Map<string, number>();
  for (const line of (await res.body.text()).split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m?.[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}
const receiver = useStarted('audit receiver', startAuditReceiver, (r) => r.close());
const h = useHarness('batch-progress', () => ({
  BATCH_RATE: 'off',
  METRICS_TOKEN: TOKEN,
  AUDIT_WEBHOOK_URL: receiver.url,
  AUDIT_WEBHOOK_SECRET: 'audit-webhook-secret-for-tests',
}));

const updatesOf = (ts: string) =>
  h.fake.callsTo('chat.update').filter((c) => c.args.ts === ts && (c.response as { ok?: boolean }).ok !== false);

it('a 50-row batch: a handful of card redraws, one progress message, throttled, ending at 50 of 50', async () => {
  const receivers = addresses(50, 4);
  const id = await submitBatchFile(
    h,
    transfersCsv(
      receivers,
      receivers.map((_, i) => i + 1),
    ),
  );
  const card = currentCard(h, id);
  expect((await scrape('rampart_batches')).get('{state="pending"}')).toBe(1);
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForApproval(h, id, 'done');
  const progress = await eventually(
    () => threadOf(h, id).find((m) => (m.text ?? '').startsWith(':checkered_flag: Finished: 50 of 50 rows')),
    15_000,
    'the progress message to show every row',
  );
  await quiescent(h);
  expect(progress.text).toContain('50 succeeded, 0 failed');
  // Batch metrics: every row counted once at its final state; no batch left open.
  expect((await scrape('rampart_batch_rows_total')).get('{kind="transfer",state="succeeded"}')).toBe(50);
  const open = await scrape('rampart_batches');
  expect([...open.values()]).toEqual([0, 0, 0, 0, 0]);
  // One progress message in the thread (updated in place), whatever its text.
  expect(
    threadOf(h, id).filter((m) => /^:(gear|checkered_flag): (Running|Finished): /.test(m.text ?? '')),
  ).toHaveLength(1);

  // The card: approved, running, done — not one redraw per row (100 row starts and ends).
  const cardUpdates = updatesOf(card.ts);
  expect(cardUpdates.length).toBeGreaterThanOrEqual(2);
  expect(cardUpdates.length).toBeLessThanOrEqual(5);
  expect(blocksText(currentCard(h, id))).toContain('Paid: all 50');

  // The progress message: at most one update per 3 s of its life (the throttle), plus its post.
  const updates = updatesOf(progress.ts ?? '');
  const first = h.fake.calls.find((c) => c.method === 'chat.postMessage' && c.response.ts === progress.ts);
  const span = (updates.at(-1)?.at ?? first?.at ?? 0) - (first?.at ?? 0);
  expect(updates.length).toBeLessThanOrEqual(1 + Math.ceil(span / PROGRESS_EVERY_MS));
});

async function exported(format: 'csv' | 'jsonl'): Promise<string> {
  const chunks: string[] = [];
  await exportAudit(
    {
      store: h.rampart.deps.store,
      write: async (c) => {
        chunks.push(c);
      },
    },
    { since: 0, until: Date.now() + 1000, format },
  );
  return chunks.join('');
}

it('the audit export and webhook carry the batch and each row: execution id, destination, amount, reference, state, proof', async () => {
  const id = (await h.rampart.deps.store.recentIds(1))[0] as string;
  expect(id).toMatch(/^B-/);
  const jsonl = await exported('jsonl');
  const record = jsonl
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditRecord)
    .find((r) => r.id === id);
  expect(record?.rows).toHaveLength(50);
  expect(record?.rows?.[2]).toMatchObject({
    row: 4,
    execution_id: `${id}.3`,
    destination: addresses(50, 4)[2],
    amount: '3',
    reference: 'INV-3',
    state: 'succeeded',
  });
  expect(record?.rows?.[2]?.proof).toMatch(/^0x[0-9a-f]{64}$/);
  expect(record?.history.find((e) => e.execution === `${id}.3` && e.event === 'succeeded')).toBeDefined();

  const csv = await exported('csv');
  const rowLines = csv.split('\n').filter((l) => l.startsWith(`${id},`) && l.includes(',row,'));
  expect(rowLines).toHaveLength(50);
  expect(rowLines[2]).toContain(`,3,${addresses(50, 4)[2]},,row,,succeeded,0x`);
  expect(rowLines[2]?.endsWith(`,${id}.3,4,INV-3`)).toBe(true);

  // The webhook: each row's final event names its execution and carries the row and its proof.
  const finals = await eventually(
    () => {
      const f = receiver.received.filter((e) => e.request_id === id && e.event === 'succeeded' && e.row);
      return f.length === 50 ? f : undefined;
    },
    15_000,
    'every row on the audit webhook',
  );
  const third = finals.find((e) => e.execution_id === `${id}.3`);
  expect(third?.row).toMatchObject({ row: 4, amount: '3', reference: 'INV-3', state: 'succeeded' });
  expect(third?.outcome?.hash).toBe(third?.row?.proof);
});
