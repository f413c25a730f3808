/** What people read in answers: /balance lines, /rate, the unfreeze card. */
import { describe, expect, it } from 'vitest';
import { balanceLines } from '../../../src/adapters/slack/blocks/balance.js';
import { unfreezeCardBlocks } from '../../../src/adapters/slack/blocks/freeze.js';
import { rateBlocks } from '../../../src/adapters/slack/blocks/rate.js';
import { readableTexts } from '../../support/block-texts.js';

const chain = { name: 'Base' } as never;

describe('what people see in answers', () => {
  it('/balance: one line per asset, zero assets hidden, the debt with its amount (item 10)', () => {
    expect(
      balanceLines([
        { id: 'base:usdc', code: 'USDC', blockchain: chain, balance: 10, available: 8.5, debt: 0 },
        { id: 'base:cngn', code: 'cNGN', blockchain: chain, balance: 0, available: 0, debt: 0 },
        { id: 'bsc:cngn', code: 'cNGN', blockchain: chain, balance: 5, available: 5, debt: 2 },
      ] as never),
    ).toMatchInlineSnapshot(`
      "*8.50 USDC* available on Base · balance 10.00
      *5.00 cNGN* available on Base · :warning: debt 2.00"
    `);
  });

  it('/rate says per what (item 18)', () => {
    expect(readableTexts(rateBlocks('NGN', 1532.75, 0))[0]).toMatchInlineSnapshot(
      `"*1 USDC ≈ ₦1,532.75* (onramp rate, NGN)"`,
    );
  });

  it('the unfreeze card offers a single "Unfreeze" when nothing is held (item 19)', () => {
    const blocks = unfreezeCardBlocks({
      proposal: { id: 'p1', by: 'U0APPROVER1', at: 0, votes: {} },
      freeze: { by: 'U0APPROVER2', at: 0, reason: 'incident 42' },
      held: [],
      required: 2,
    });
    expect(readableTexts(blocks).join('\n')).toMatchInlineSnapshot(`
      "Unfreeze Rampart
      :octagonal_sign: *Frozen by <@U0APPROVER2> at <!date^0^{date_short_pretty} {time}|1970-01-01 00:00 UTC>:* \`incident 42\`. Nothing is approved or executed until an unfreeze is approved (\`/unfreeze\`).
      Asked by <@U0APPROVER1> at <!date^0^{date_short_pretty} {time}|1970-01-01 00:00 UTC>. Needs 2 approvers choosing the same.
      *Approved, waiting to run* (0)
      _No approved request is waiting to run._
      Votes: none yet
      Unfreeze"
    `);
  });
});
