/** The /batch builders: field error text, the full problem list within Slack's limits. */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { batchFieldError, batchModal, batchProblemMessages } from '../../../src/adapters/slack/blocks/batch-modal.js';

const rowError = (row: number) => ({
  row,
  message: `Row ${row} amount: This asset has 6 decimal places; 1.1234567 has 7.`,
});

describe('batch modal builders', () => {
  it('the modal respects Block Kit limits and offers one .csv file', () => {
    const view = batchModal({ channel: 'C0GENERAL' }, [{ alias: 'ops' }, { alias: 'treasury' }]);
    expect(checkBlockKitLimits('modal', view)).toEqual([]);
  });

  it('marks wallets that cannot pay, never chooses one by default, and lists held assets with their balance', () => {
    const view = batchModal({ channel: 'C0GENERAL' }, [{ alias: 'dormant', note: 'inactive' }, { alias: 'ops' }], {}, [
      { id: 'bsc:cngn', note: '14,000,000.00 available' },
    ]);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('dormant · inactive');
    const wallet = view.blocks.find((b) => b.block_id === 'wallet') as {
      element: { initial_option?: { value: string } };
    };
    expect(wallet.element.initial_option?.value).toBe('ops');
    expect(text).toContain('14,000,000.00 available');
    expect(text).not.toContain('base:usdc');
  });

  it('names the rows to fix: one, two, or the first five and how many more', () => {
    expect(batchFieldError([], [rowError(7)]).text).toMatch(/\nFix row 7 and upload again\.$/);
    expect(batchFieldError([], [rowError(7), rowError(12)]).text).toMatch(/\nFix rows 7 and 12 and upload again\.$/);
    const many = batchFieldError(
      [],
      Array.from({ length: 40 }, (_, i) => rowError(i + 2)),
    );
    expect(many.fits).toBe(false);
    expect(many.text).toMatch(
      /40 problems in all; the full list is in a message from Rampart\.\)\nFix rows 2, 3, 4, 5, 6 and 35 more and upload again\.$/,
    );
    expect(many.text.length).toBeLessThan(500);
  });

  it('sends every one of 5,000 problems, each message within Slack limits', () => {
    const problems = Array.from({ length: 5000 }, (_, i) => rowError(i + 2).message);
    const messages = batchProblemMessages('payouts.csv', problems);
    for (const blocks of messages) expect(checkBlockKitLimits('message', { blocks })).toEqual([]);
    const text = JSON.stringify(messages);
    for (let row = 2; row <= 5001; row += 499) expect(text).toContain(`Row ${row} amount`);
    expect(messages.flat().length).toBeGreaterThan(45);
  });
});
