/**
 * Issue 20 "Progress": a running batch's card is redrawn on state changes only, never per row;
 * its thread holds one progress message, updated at most every 3 s (all batches together at
 * most 20 chat.update a minute), which ends showing every row.
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROGRESS_EVERY_MS } from '../../src/queue/batch-progress.js';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { blocksText, eventually, expectHealthyRun, type Harness, PEOPLE, startHarness } from '../support/harness.js';
import { click, currentCard, quiescent, threadOf } from '../support/requests.js';

let h: Harness;
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
beforeAll(async () => {
  h = await startHarness('batch-progress', { BATCH_RATE: 'off', METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  expectHealthyRun(h);
  await h.close();
});

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
  // Issue 20 metrics: every row counted once at its final state; no batch left open.
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
  expect(blocksText(currentCard(h, id))).toContain('Finished: 50 succeeded');

  // The progress message: at most one update per 3 s of its life (the throttle), plus its post.
  const updates = updatesOf(progress.ts ?? '');
  const first = h.fake.calls.find((c) => c.method === 'chat.postMessage' && c.response.ts === progress.ts);
  const span = (updates.at(-1)?.at ?? first?.at ?? 0) - (first?.at ?? 0);
  expect(updates.length).toBeLessThanOrEqual(1 + Math.ceil(span / PROGRESS_EVERY_MS));
});
