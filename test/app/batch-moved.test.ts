/**
 * A finished batch says what it moved on its card and in its notification text ("Partly paid:
 * 3 of 4 (1,235.294 USDC), 1 failed"): the sum of the succeeded rows' sealed amounts, read from
 * the stored rows when the card is drawn, exact (bigint minor units: 0.1 + 0.2 is 0.30 here).
 * Real Redis, the store's own scripts; the notifier is a recorder.
 */
import { expect, it } from 'vitest';
import { cardText } from '../../src/adapters/slack/blocks/card-summary.js';
import { checkFunding } from '../../src/app/batch-funding.js';
import { withMoved } from '../../src/app/batch-moved.js';
import { approve } from '../../src/app/decide.js';
import { redrawBatchCard } from '../../src/app/notices/batch-progress.js';
import type { Notifier } from '../../src/app/notifier.js';
import type { BatchFacts } from '../../src/domain/batch-approval.js';
import type { RequestRecord } from '../../src/domain/request.js';
import { APPROVERS, sealBatch, useWorld } from './support.js';

const w = useWorld('batch-moved');

const AMOUNTS = [0.1, 0.2, 999, 1234.994];

const facts: BatchFacts = {
  kind: 'transfers',
  fileName: 'payouts.csv',
  rows: AMOUNTS.length,
  total: '2234.294',
  largest: { row: 5, amount: '1234.994' },
  availableNow: '10000',
  availableAfter: '7765.706',
  fileFingerprint: 'f'.repeat(64),
  preview: [],
};

/** Runs row k to `to` through the store's start and finish scripts, in row order. */
async function finishRow(id: string, k: number, to: 'succeeded' | 'failed'): Promise<void> {
  const started = await w.store.executions.start(`${id}.${k}`, `t${k}`);
  if (!started.token) throw new Error(`row ${k} did not start`);
  const moved = await w.store.executions.finish(
    `${id}.${k}`,
    started.token,
    to,
    to === 'failed' ? { message: 'refused' } : {},
  );
  expect(moved.ok).toBe(true);
}

async function finishedBatch(): Promise<string> {
  const id = await sealBatch(w, AMOUNTS, 'B', { batch: facts });
  expect((await approve(w.deps, id, APPROVERS[0] as string)).kind).toBe('approved');
  // The first try takes the wallet's turn and asks for the funding check (as executeOne does).
  expect((await w.store.executions.start(`${id}.1`, 't')).approval).toBe('funding');
  expect(await checkFunding(w.deps, id)).toBe('funded');
  await finishRow(id, 1, 'succeeded');
  await finishRow(id, 2, 'succeeded');
  await finishRow(id, 3, 'failed');
  return id;
}

it('a running batch is drawn as read: nothing moved is claimed before the end', async () => {
  const id = await finishedBatch();
  const running = (await w.store.get(id)) as RequestRecord;
  expect(running.approvalState).not.toBe('done');
  expect((await withMoved(w.store, running)).moved).toBeUndefined();
  await finishRow(id, 4, 'succeeded');
});

it('a finished batch card and its text carry the exact total of the succeeded rows', async () => {
  const id = await finishedBatch();
  await finishRow(id, 4, 'succeeded');
  const record = (await w.store.get(id)) as RequestRecord;
  expect(record.approvalState).toBe('done');
  const moved = (await withMoved(w.store, record)).moved;
  // 0.1 + 0.2 + 1234.994 in USDC's 6 decimals; the failed 999 is not counted.
  expect(moved).toEqual({ units: 1_235_294_000n, decimals: 6 });

  const drawn: RequestRecord[] = [];
  const notifier = { updateCard: async (r: RequestRecord) => void drawn.push(r) } as unknown as Notifier;
  await redrawBatchCard({ notifier, store: w.store, log: w.deps.log }, id, { channel: 'C0APPROVALS', ts: '1.1' });
  const card = drawn[0] as RequestRecord;
  expect(cardText(card)).toMatch(/^Partly paid: 3 of 4 \(1,235\.294 USDC\), 1 failed: /);
});
