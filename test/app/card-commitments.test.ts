/**
 * What is already promised: a payment's card, drawn while a batch on the same wallet and asset
 * still has rows to send, names the batch, what it still needs, and what is left once both are
 * paid; the Approve confirmation says when that is short, and the approval is not refused for it.
 */
import { expect, it } from 'vitest';
import { requestCardBlocks } from '../../src/adapters/slack/blocks/card.js';
import { approveConfirmText } from '../../src/adapters/slack/blocks/card-summary.js';
import { checkFunding } from '../../src/app/batch-funding.js';
import { cardCommitments } from '../../src/app/commitments.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { amountFromNumber, formatAmount } from '../../src/domain/amount.js';
import { readableTexts } from '../support/block-texts.js';
import { APPROVERS, sealBatch, startWorld, transfer, useWorld } from './support.js';

const w = useWorld('card-commit');

const commitmentsOf = async (id: string) => {
  const record = await w.store.get(id);
  if (!record) throw new Error(`no ${id}`);
  return {
    record,
    commitments: await cardCommitments({ store: w.store, service: w.service, log: w.deps.log }, record),
  };
};

it('a single drawn while a batch runs names the batch’s commitment and what is left after both', async () => {
  const batch = await sealBatch(w, [50_000, 40_000, 30_000]);
  expect((await approve(w.deps, batch, APPROVERS[0] as string)).kind).toBe('approved');
  expect((await w.store.executions.start(`${batch}.1`, 't')).approval).toBe('funding');
  expect(await checkFunding(w.deps, batch)).toBe('funded');
  expect(await executeOne(w.exec(), `${batch}.1`)).toBe('succeeded');
  // Another request still waiting for approval promises nothing.
  await w.submit([transfer(7)]);
  const single = await w.submit([transfer(13_500)]);

  const { record, commitments } = await commitmentsOf(single);
  expect(commitments?.items).toEqual([{ id: batch, units: 70_000_000_000n, status: 'running' }]);
  const balance = (await w.service.getBalances('wal_ops_7f3a')).find((b) => b.id === 'base:usdc')?.available ?? 0;
  const after = amountFromNumber(balance, 6).units - 13_500_000_000n - 70_000_000_000n;
  expect(commitments?.availableAfter).toBe(after);
  expect(after < 0n).toBe(true);

  const card = readableTexts(requestCardBlocks(record, { commitments })).join('\n');
  expect(card).toContain(
    `*Committed:* ${batch} still needs 70,000.00 USDC (running) · available after this and open commitments: ${formatAmount({ units: after, decimals: 6 })} USDC`,
  );
  expect(approveConfirmText(record, commitments)).toContain(
    `Short by ${formatAmount({ units: -after, decimals: 6 })} USDC with ${batch} (allowed; a payment may fail for funds).`,
  );
  // Not refused for it: the approval goes through.
  expect((await approve(w.deps, single, APPROVERS[0] as string)).kind).toBe('approved');
});

it('says nothing when nothing else is promised from the balance', async () => {
  const other = await startWorld('card-commit-none');
  try {
    const single = await other.submit([transfer(25)]);
    const record = await other.store.get(single);
    if (!record) throw new Error('no record');
    const c = await cardCommitments({ store: other.store, service: other.service, log: other.deps.log }, record);
    expect(c?.items).toEqual([]);
    expect(readableTexts(requestCardBlocks(record, { commitments: c })).join('\n')).not.toContain('Committed');
  } finally {
    await other.close();
  }
});
