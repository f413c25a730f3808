/** Request again's builders and file: pure, within Block Kit limits. */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { againInvalidModal, checkingModal, finishedBlocks } from '../../../src/adapters/slack/blocks/batch-again.js';
import { batchModal } from '../../../src/adapters/slack/blocks/batch-modal.js';
import { againFile } from '../../../src/app/request-again.js';
import { amountToString } from '../../../src/domain/amount.js';
import { assetInfo } from '../../../src/domain/assets.js';
import { readBatchFile } from '../../../src/domain/batch-file.js';

const rows = Array.from({ length: 30 }, (_, i) => ({
  row: 2 * i + 3,
  destination: `0x${String(i).padStart(40, 'a')}`,
  amount: `${i + 1}.5`,
  reference: `INV, "${i}"`,
  state: i % 2 ? 'cancelled' : 'failed',
}));

describe('request again', () => {
  it('offers the button only when some rows failed or were cancelled', () => {
    expect(finishedBlocks('Batch B-1 finished', 'B-1', 0)).toHaveLength(1);
    const blocks = finishedBlocks('Batch B-1 finished', 'B-1', 2);
    expect(JSON.stringify(blocks)).toContain('"action_id":"batch_request_again"');
    expect(JSON.stringify(blocks)).toContain('Request again (2 rows)');
  });

  it('writes the stored rows back as a file the same reader takes, row for row', () => {
    const read = readBatchFile(againFile('transfers', rows), {
      kind: 'transfers',
      asset: assetInfo('base:usdc'),
      maxRows: 1000,
    });
    expect(read.kind).toBe('read');
    const ok = read as Extract<typeof read, { kind: 'read' }>;
    expect(ok.rows.map((r) => r.destination)).toEqual(rows.map((r) => r.destination));
    expect(ok.rows.map((r) => amountToString(r.amount))).toEqual(rows.map((r) => r.amount));
    expect(ok.rows.map((r) => r.reference)).toEqual(rows.map((r) => r.reference));
  });

  it('names each problem with its row in the old batch, and every view respects Block Kit limits', () => {
    const view = againInvalidModal('B-9', rows, {
      kind: 'invalid',
      fileErrors: [],
      rowErrors: [{ row: 3, message: 'Row 3 receiver: not an address.' }],
    });
    expect(JSON.stringify(view.blocks)).toContain('Row 3 receiver: not an address. (row 5 of B-9)');
    expect(JSON.stringify(view.blocks)).toContain('Fix row 5 of B-9');
    expect('submit' in view).toBe(false);
    expect(checkBlockKitLimits('modal', view)).toEqual([]);
    expect(checkBlockKitLimits('modal', checkingModal('Request again', 'x'.repeat(3000)))).toEqual([]);
    const redrawn = batchModal({ channel: 'C1' }, [{ alias: 'ops' }], { kind: 'offramps', problem: 'p'.repeat(4000) });
    expect(checkBlockKitLimits('modal', redrawn)).toEqual([]);
  });
});
