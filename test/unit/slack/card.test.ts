/**
 * The approval card and its thread replies, pinned for every state × kind (builders get unit
 * tests with inline snapshots, rather than text searches in e2e). The snapshots hold
 * what a person reads; the structural rules (buttons only while pending, Block Kit limits) are
 * asserted directly.
 */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { outcomeReply } from '../../../src/adapters/slack/blocks/card-replies.js';
import { VIEW_STATES } from '../../../src/domain/approval.js';
import type { RequestKind } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord } from '../../support/factories.js';

const KINDS: RequestKind[] = ['transfer', 'offramp', 'beneficiary'];

const read = (kind: RequestKind, state: (typeof VIEW_STATES)[number]) =>
  readableTexts(requestCardBlocks(buildRecord(state, kind))).join('\n');

describe('the approval card', () => {
  for (const kind of KINDS) {
    for (const state of VIEW_STATES) {
      it(`${kind} ${state}: buttons only while pending (and Record outcome… while unknown), within Block Kit limits`, () => {
        const blocks = requestCardBlocks(buildRecord(state, kind));
        const actions = blocks.filter((b) => b.type === 'actions');
        expect(actions).toHaveLength(state === 'pending' || state === 'unknown' ? 1 : 0);
        if (state === 'unknown')
          expect(JSON.stringify(actions)).toContain(
            '"action_id":"outcome_record","text":{"type":"plain_text","text":"Record outcome…"',
          );
        expect(checkBlockKitLimits('message', { blocks, text: 'card' })).toEqual([]);
        // The sealed hash is on every card, in every state (DESIGN invariant 2).
        expect(read(kind, state)).toContain(buildRecord(state, kind).sealed.hash);
      });
    }
  }

  it('shows a pending transfer as an approver must see it', () => {
    expect(read('transfer', 'pending')).toMatchInlineSnapshot(`
      "Transfer R-1001
      :hourglass_flowing_sand: Waiting for approval
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
      Approve
      Approve this request?
      Send 1,250.50 USDC on Base from ops to 0x 99ED 2e97 1625 33BA 814a F809 2b93 b9a3 090D EdcF? Yours is approval 1 of 1: it runs now and cannot be undone.
      Approve
      Back
      Deny
      Cancel my request (requester only)"
    `);
  });

  // The pending offramp's card is pinned once, with what it must show, in card-ux.test.ts.
  it('shows a pending beneficiary', () => {
    expect(read('beneficiary', 'pending')).toMatchInlineSnapshot(`
      "New beneficiary R-1001
      :hourglass_flowing_sand: Waiting for approval
      *Identity:* Ada Obi (BVN ••••4455)
      *Bank account:* GTBank ••••6789
      *Holder:* ADA OBI _(verified by bank lookup)_
      *Requested by:* <@U0REQUESTER>
      Reason: vendor invoice 118
      *Rule:* 1 approval
      *Approvals:* 0 of 1
      *Expires:* <!date^1795339800^{date_short_pretty} {time}|2026-11-22 09:30 UTC>
      Sealed request hash \`285475228c\` · what runs is exactly what is shown
      Approve
      Approve this request?
      Add GTBank ••••6789 (ADA OBI) as a payout destination for Ada Obi (BVN ••••4455)? Yours is approval 1 of 1: it runs now and cannot be undone.
      Approve
      Back
      Deny
      Cancel my request (requester only)"
    `);
  });

  it('shows each decided state of a transfer', () => {
    const states = [
      'approved',
      'executing',
      'succeeded',
      'failed',
      'unknown',
      'denied',
      'cancelled',
      'expired',
    ] as const;
    expect(
      Object.fromEntries(states.map((s) => [s, readableTexts(requestCardBlocks(buildRecord(s)))[1]])),
    ).toMatchInlineSnapshot(`
      {
        "approved": ":white_check_mark: Approved, queued to run (quorum reached by <@U0APPROVER1> at <!date^1795253460^{date_short_pretty} {time}|2026-11-21 09:31 UTC>)",
        "cancelled": ":heavy_multiplication_x: Cancelled by the requester",
        "denied": ":no_entry_sign: Denied by <@U0APPROVER1> at <!date^1795253460^{date_short_pretty} {time}|2026-11-21 09:31 UTC>",
        "executing": ":gear: Executing (quorum reached by <@U0APPROVER1> at <!date^1795253460^{date_short_pretty} {time}|2026-11-21 09:31 UTC>)",
        "expired": ":alarm_clock: Expired without enough approvals",
        "failed": ":x: Failed: The wallet service refused the request: “insufficient balance”.",
        "succeeded": ":white_check_mark: Succeeded: <https://basescan.org/tx/0x5b1e8f0c2a91d3e4b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4|view the transaction> \`0x5b1e…e5f4\`",
        "unknown": ":rotating_light: OUTCOME UNKNOWN: The wallet service did not answer in time.",
      }
    `);
  });
});

describe('the thread reply for each final state', () => {
  it('phrases every final state of every kind', () => {
    const finals = ['succeeded', 'failed', 'unknown', 'denied', 'cancelled', 'expired'] as const;
    const replies = Object.fromEntries(
      KINDS.flatMap((k) => finals.map((s) => [`${k} ${s}`, outcomeReply(buildRecord(s, k))])),
    );
    expect(replies).toMatchInlineSnapshot(`
      {
        "beneficiary cancelled": ":heavy_multiplication_x: R-1001 was cancelled by the requester.",
        "beneficiary denied": ":no_entry_sign: <@U0REQUESTER> R-1001 was denied by <@U0APPROVER1>: \`not in this month’s budget\`",
        "beneficiary expired": ":alarm_clock: <@U0REQUESTER> R-1001 expired without enough approvals. Make a new request if it is still needed.",
        "beneficiary failed": ":x: <@U0REQUESTER> R-1001 failed: The wallet service refused the request: “insufficient balance”. Nothing was retried; make a new request once the cause is fixed.",
        "beneficiary succeeded": ":white_check_mark: <@U0REQUESTER> R-1001 succeeded: id \`ben_5f0c2a\`.",
        "beneficiary unknown": ":rotating_light: <@U0REQUESTER> *R-1001: outcome unknown*. The wallet service did not answer in time.
      *Do not request it again:* it may already have gone through, and Rampart will not call the service for it again. Check the service's records (ask its operators) to learn whether the beneficiary was created. Once you know, an approver other than the requester records it with *Record outcome…* on the card (or \`/resolve R-1001.1\`): paid, with the proof; not paid is only a proposal until a second approver confirms it.",
        "offramp cancelled": ":heavy_multiplication_x: R-1001 was cancelled by the requester.",
        "offramp denied": ":no_entry_sign: <@U0REQUESTER> R-1001 (500.00 USDC to Ada Obi · GTBank ••••6789) was denied by <@U0APPROVER1>: \`not in this month’s budget\`",
        "offramp expired": ":alarm_clock: <@U0REQUESTER> R-1001 (500.00 USDC to Ada Obi · GTBank ••••6789) expired without enough approvals. Make a new request if it is still needed.",
        "offramp failed": ":x: <@U0REQUESTER> R-1001 failed (500.00 USDC to Ada Obi · GTBank ••••6789): The wallet service refused the request: “insufficient balance”. Nothing was retried; make a new request once the cause is fixed.",
        "offramp succeeded": ":white_check_mark: <@U0REQUESTER> R-1001 succeeded: 500.00 USDC to Ada Obi · GTBank ••••6789. The service's reference: \`OFR-20261121-0042\`.",
        "offramp unknown": ":rotating_light: <@U0REQUESTER> *R-1001: outcome unknown* (500.00 USDC to Ada Obi · GTBank ••••6789). The wallet service did not answer in time.
      *Do not request it again:* it may already have gone through, and Rampart will not call the service for it again. Check the wallet's balances and the service's records of payouts to this beneficiary (ask its operators) to learn whether it went through. Once you know, an approver other than the requester records it with *Record outcome…* on the card (or \`/resolve R-1001.1\`): paid, with the proof; not paid is only a proposal until a second approver confirms it.",
        "transfer cancelled": ":heavy_multiplication_x: R-1001 was cancelled by the requester.",
        "transfer denied": ":no_entry_sign: <@U0REQUESTER> R-1001 (1,250.50 USDC to 0x99ED…EdcF) was denied by <@U0APPROVER1>: \`not in this month’s budget\`",
        "transfer expired": ":alarm_clock: <@U0REQUESTER> R-1001 (1,250.50 USDC to 0x99ED…EdcF) expired without enough approvals. Make a new request if it is still needed.",
        "transfer failed": ":x: <@U0REQUESTER> R-1001 failed (1,250.50 USDC to 0x99ED…EdcF): The wallet service refused the request: “insufficient balance”. Nothing was retried; make a new request once the cause is fixed.",
        "transfer succeeded": ":white_check_mark: <@U0REQUESTER> R-1001 succeeded: 1,250.50 USDC to 0x99ED…EdcF. Transaction <https://basescan.org/tx/0x5b1e8f0c2a91d3e4b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4|0x5b1e…e5f4>.",
        "transfer unknown": ":rotating_light: <@U0REQUESTER> *R-1001: outcome unknown* (1,250.50 USDC to 0x99ED…EdcF). The wallet service did not answer in time.
      *Do not request it again:* it may already have gone through, and Rampart will not call the service for it again. Check the wallet's balances, the receiver's address on the chain's explorer and the service's records (ask its operators) to learn whether it went through. Once you know, an approver other than the requester records it with *Record outcome…* on the card (or \`/resolve R-1001.1\`): paid, with the proof; not paid is only a proposal until a second approver confirms it.",
      }
    `);
  });
});
