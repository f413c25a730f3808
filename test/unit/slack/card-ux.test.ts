/**
 * What people see: the card in each state for a transfer and an offramp, the Approve
 * confirmation, and the notification text, pinned as a person reads them.
 */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { approveConfirmText, cardText } from '../../../src/adapters/slack/blocks/card-summary.js';
import { VIEW_STATES } from '../../../src/domain/approval.js';
import type { RequestRecord } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord, buildSealedRequest, RECEIVER_EVM } from '../../support/factories.js';

const FREEZE = { by: 'U0APPROVER2', at: Date.UTC(2026, 10, 21, 10, 0), reason: 'incident 42' };
const read = (r: RequestRecord, freeze?: typeof FREEZE) =>
  readableTexts(requestCardBlocks(r, freeze ? { freeze } : {})).join('\n');

/** `card`'s lines, each one the same as in `base` (which has as many) shown as …. */
function linesBeside(card: string, base: string): string[] {
  const lines = card.split('\n');
  const baseLines = base.split('\n');
  expect(lines).toHaveLength(baseLines.length);
  return lines.map((line, i) => (line === baseLines[i] ? '…' : line));
}

/** A 2-of-2 transfer of the entire USDT balance, sealed at submission. */
function entireBalance(votes: RequestRecord['votes'] = []): RequestRecord {
  const base = buildSealedRequest('transfer');
  return buildRecord('pending', 'transfer', {
    votes,
    sealed: {
      ...base,
      requiredApprovals: 2,
      rule: '2 approvals above 10,000 USDT',
      call: {
        kind: 'transfer',
        body: { wallet_id: 'wal_ops_7f3a', amount: 29500.25, receiver: RECEIVER_EVM, asset: 'arbitrum:usdt' },
      },
      display: { ...base.display, amountText: '29,500.25', assetCode: 'USDT', chain: 'arbitrum', entireBalance: true },
    },
  });
}

describe('the notification text leads with the money', () => {
  it('says what moves, where, then the id and who asked, in every state', () => {
    const texts = Object.fromEntries(
      (['transfer', 'offramp'] as const).flatMap((k) =>
        VIEW_STATES.map((s) => [`${k} ${s}`, cardText(buildRecord(s, k))]),
      ),
    );
    expect(texts).toMatchInlineSnapshot(`
      {
        "offramp approved": "Approved, queued to run: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp cancelled": "Cancelled: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp denied": "Denied: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp executing": "Executing: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp expired": "Expired: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp failed": "Failed: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp pending": "Approval needed: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp succeeded": "Succeeded: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "offramp unknown": "OUTCOME UNKNOWN: 500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789 · R-1001 · <@U0REQUESTER>",
        "transfer approved": "Approved, queued to run: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer cancelled": "Cancelled: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer denied": "Denied: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer executing": "Executing: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer expired": "Expired: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer failed": "Failed: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer pending": "Approval needed: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer succeeded": "Succeeded: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
        "transfer unknown": "OUTCOME UNKNOWN: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>",
      }
    `);
    expect(cardText(entireBalance())).toMatchInlineSnapshot(
      `"Approval needed: all available at submission, 29,500.25 USDT (Arbitrum) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>"`,
    );
    expect(cardText(buildRecord('pending'), FREEZE)).toMatchInlineSnapshot(
      `"On hold, Rampart is frozen: 1,250.50 USDC (Base) ops → 0x99ED…EdcF · R-1001 · <@U0REQUESTER>"`,
    );
  });
});

describe('the Approve confirmation says what runs and whether this click runs it', () => {
  it('names the money, the chain, from and to, and the approval count', () => {
    expect(approveConfirmText(buildRecord('pending'))).toMatchInlineSnapshot(
      `"Send 1,250.50 USDC on Base from ops to 0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF? Yours is approval 1 of 1: it runs now and cannot be undone."`,
    );
    expect(approveConfirmText(buildRecord('pending', 'offramp'))).toMatchInlineSnapshot(
      `"Pay out 500.00 USDC on Base from ops to Ada Obi · GTBank ••••6789? Yours is approval 1 of 1: it runs now and cannot be undone."`,
    );
    expect(approveConfirmText(entireBalance())).toMatchInlineSnapshot(
      `"Send all available at submission, 29,500.25 USDT on Arbitrum from ops to 0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF? Yours is approval 1 of 2: it runs only once 1 more approver agrees."`,
    );
    expect(approveConfirmText(entireBalance([{ user: 'U0APPROVER1', at: 1 }]))).toMatchInlineSnapshot(
      `"Send all available at submission, 29,500.25 USDT on Arbitrum from ops to 0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF? Yours is approval 2 of 2: it runs now and cannot be undone."`,
    );
  });
});

describe('the card', () => {
  it('shows the sealed entire balance with its label (item 4)', () => {
    // Line by line against the plain pending transfer (pinned whole in card.test.ts): … where the same.
    expect(linesBeside(read(entireBalance()), read(buildRecord('pending', 'transfer')))).toMatchInlineSnapshot(`
      [
        "…",
        "…",
        "*Amount:* All available at submission: *29,500.25* USDT  ·  *Chain:* Arbitrum  (\`arbitrum:usdt\`)",
        "*From:* ops <https://arbiscan.io/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x99ED…EdcF>",
        "*To:* <https://arbiscan.io/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF>",
        "…",
        "…",
        "*Available:* 10,000.00 → 8,749.50 USDT",
        "…",
        "…",
        "*Rule:* 2 approvals above 10,000 USDT",
        "*Approvals:* 0 of 2",
        "…",
        "…",
        "…",
        "…",
        "Send all available at submission, 29,500.25 USDT on Arbitrum from ops to 0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF? Yours is approval 1 of 2: it runs only once 1 more approver agrees.",
        "…",
        "…",
        "…",
        "…",
      ]
    `);
  });

  it('shows a pending offramp: holder once with its bank lookup and date, the indicative naira (items 7, 8)', () => {
    expect(read(buildRecord('pending', 'offramp'))).toMatchInlineSnapshot(`
      "Offramp R-1001
      :hourglass_flowing_sand: Waiting for approval
      *Amount:* *500.00* USDC  ·  *Chain:* Base  (\`base:usdc\`)
      *From:* ops
      *To beneficiary:* Ada Obi · GTBank ••••6789 _(holder name verified by bank lookup <!date^1794668520^{date_short_pretty} {time}|2026-11-14 15:02 UTC>)_
      *Indicative:* ≈ ₦766,375 at ₦1,532.75 per USDC (onramp rate at submission; the payout uses the service's rate)
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      *Rule:* 1 approval
      *Approvals:* 0 of 1
      *Expires:* <!date^1795339800^{date_short_pretty} {time}|2026-11-22 09:30 UTC>
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown
      Approve
      Approve this request?
      Pay out 500.00 USDC on Base from ops to Ada Obi · GTBank ••••6789? Yours is approval 1 of 1: it runs now and cannot be undone.
      Approve
      Back
      Deny
      Cancel my request (requester only)"
    `);
  });

  it('holds a frozen card: no Approve, "On hold" (item 5)', () => {
    const text = read(buildRecord('pending'), FREEZE);
    expect(text).toMatchInlineSnapshot(`
      "Transfer R-1001
      :octagonal_sign: On hold: Rampart is frozen, so this cannot be approved now
      :octagonal_sign: *Frozen by <@U0APPROVER2> at <!date^1795255200^{date_short_pretty} {time}|2026-11-21 10:00 UTC>:* \`incident 42\`. Nothing is approved or executed until an unfreeze is approved (\`/unfreeze\`).
      *Amount:* *1,250.50* USDC  ·  *Chain:* Base  (\`base:usdc\`)
      *From:* ops <https://basescan.org/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x99ED…EdcF>
      *To:* <https://basescan.org/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF>
      _typed by <@U0REQUESTER> · EIP-55 checksum valid_
      :warning: *Rampart has never paid this address before.* Check it with the payee.
      *Available:* 10,000.00 → 8,749.50 USDC
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      *Rule:* 1 approval
      *Approvals:* 0 of 1
      *Expires:* <!date^1795339800^{date_short_pretty} {time}|2026-11-22 09:30 UTC>
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown
      Deny
      Cancel my request (requester only)"
    `);
    const actions = requestCardBlocks(buildRecord('pending'), { freeze: FREEZE }).find((b) => b.type === 'actions');
    expect(JSON.stringify(actions)).not.toContain('request_approve');
  });

  it('names a transfer to one of our own wallets, without the "never paid" warning (item 6)', () => {
    const r = buildRecord('pending');
    r.sealed.display = { ...r.sealed.display, ownWallet: 'treasury' };
    expect(read(r).split('\n').slice(2, 6)).toMatchInlineSnapshot(`
      [
        "*Amount:* *1,250.50* USDC  ·  *Chain:* Base  (\`base:usdc\`)",
        "*From:* ops <https://basescan.org/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x99ED…EdcF>",
        "*To:* treasury (own wallet) <https://basescan.org/address/0x99ED2e97162533BA814aF8092b93b9a3090DEdcF|0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF>",
        "*Available:* 10,000.00 → 8,749.50 USDC",
      ]
    `);
  });

  it('shrinks a decided card to its outcome, one summary line and the people (item 9)', () => {
    const finals = ['succeeded', 'failed', 'unknown', 'denied', 'cancelled', 'expired'] as const;
    const cards = Object.fromEntries(
      (['transfer', 'offramp'] as const).flatMap((k) => finals.map((s) => [`${k} ${s}`, read(buildRecord(s, k))])),
    );
    expect(cards).toMatchInlineSnapshot(`
      {
        "offramp cancelled": "Offramp R-1001
      :heavy_multiplication_x: Cancelled by the requester
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown",
        "offramp denied": "Offramp R-1001
      :no_entry_sign: Denied by <@U0APPROVER1> at <!date^1795253460^{date_short_pretty} {time}|2026-11-21 09:31 UTC>
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Reason to deny: not in this month’s budget
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown",
        "offramp expired": "Offramp R-1001
      :alarm_clock: Expired without enough approvals
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown",
        "offramp failed": "Offramp R-1001
      :x: Failed: The wallet service refused the request: “insufficient balance”.
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown",
        "offramp succeeded": "Offramp R-1001
      :white_check_mark: Succeeded: reference \`OFR-20261121-0042\`
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown",
        "offramp unknown": "Offramp R-1001
      :rotating_light: OUTCOME UNKNOWN: The wallet service did not answer in time.
      500.00 USDC (Base) ops → Ada Obi · GTBank ••••6789
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`80015cb612\` · what runs is exactly what is shown
      Record outcome…",
        "transfer cancelled": "Transfer R-1001
      :heavy_multiplication_x: Cancelled by the requester
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown",
        "transfer denied": "Transfer R-1001
      :no_entry_sign: Denied by <@U0APPROVER1> at <!date^1795253460^{date_short_pretty} {time}|2026-11-21 09:31 UTC>
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Reason to deny: not in this month’s budget
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown",
        "transfer expired": "Transfer R-1001
      :alarm_clock: Expired without enough approvals
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown",
        "transfer failed": "Transfer R-1001
      :x: Failed: The wallet service refused the request: “insufficient balance”.
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown",
        "transfer succeeded": "Transfer R-1001
      :white_check_mark: Succeeded: <https://basescan.org/tx/0x5b1e8f0c2a91d3e4b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4|view the transaction> \`0x5b1e…e5f4\`
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown",
        "transfer unknown": "Transfer R-1001
      :rotating_light: OUTCOME UNKNOWN: The wallet service did not answer in time.
      1,250.50 USDC (Base) ops → 0x99ED…EdcF
      *Requested by:* <@U0REQUESTER>
      *Approved by:* <@U0APPROVER1>
      Reason: vendor invoice 118
      Sealed request hash \`05462931a8\` · what runs is exactly what is shown
      Record outcome…",
      }
    `);
  });

  it('labels every button for screen readers, within Block Kit limits (item 12)', () => {
    const blocks = requestCardBlocks(buildRecord('pending'));
    const actions = blocks.find((b) => b.type === 'actions') as unknown as { elements: Array<Record<string, unknown>> };
    expect(actions.elements.map((e) => e.accessibility_label ?? e.type)).toMatchInlineSnapshot(`
      [
        "Approve R-1001: 1,250.50 USDC, ops to 0x99ED…EdcF",
        "Deny R-1001: 1,250.50 USDC, ops to 0x99ED…EdcF",
        "overflow",
      ]
    `);
    expect(checkBlockKitLimits('message', { blocks, text: 'card' })).toEqual([]);
  });
});
