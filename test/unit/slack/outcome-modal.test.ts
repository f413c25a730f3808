/** The Record outcome form: the payment restated in full, the evidence in its order, nothing pre-selected. */

import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { recordOutcomeModal } from '../../../src/adapters/slack/blocks/outcome-modal.js';
import type { OutcomeFacts } from '../../../src/app/outcome-facts.js';
import { fullAddress } from '../../../src/presenters/address.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildOutcomeFacts as facts, OUTCOME_START as START } from '../../support/factories.js';

const text = (f: OutcomeFacts) => readableTexts(recordOutcomeModal(f, 'C0APPROVALS', '{}').blocks).join('\n');

describe('the Record outcome form', () => {
  it('restates the payment with the full address and explorer links, and says where to look first', () => {
    const f = facts();
    const receiver = f.call.kind === 'transfer' ? f.call.body.receiver : '';
    const t = text(f);
    expect(t).toContain('*Amount:* 77.77 USDC on Base');
    // The full address, grouped in fours for reading: a lookalike matches only the ends.
    expect(t).toContain(`*To:* \`${fullAddress(receiver)}\``);
    expect(t).toContain(`https://basescan.org/address/${receiver}`);
    expect(t).toContain('<@U0APPROVER1>');
    expect(t).toContain(`*Sealed hash:* \`${f.execution.sealHash.slice(0, 10)}\``);
    expect(t).toContain('look for an incoming 77.77 USDC from ops after 2026-11-21 14:02 UTC');
    expect(t.indexOf('What decides it')).toBeLessThan(t.indexOf('Balances'));
    expect(t).toContain('• Before the start: 1,000.00 USDC at 2026-11-21 13:58 UTC (4 min before the start)');
    expect(t).toContain('Cannot tell: deposits, fees and late debits hide a payment');
    const modal = recordOutcomeModal(f, 'C0APPROVALS', '{}');
    expect(JSON.stringify(modal)).not.toContain('initial_option');
    expect(checkBlockKitLimits('modal', modal)).toEqual([]);
  });

  it('counts only a drop, and names other payments that ran between the readings', () => {
    expect(text(facts({ atUnknown: { at: START + 31_000, available: { 'base:usdc': 922.23 } } }))).toContain(
      'The balance dropped by 77.77 USDC after the start',
    );
    expect(text(facts({ others: ['R-1002.1', 'B-3.4'] }))).toContain('(R-1002.1, B-3.4), so the balances cannot tell');
    expect(text(facts({ before: undefined }))).toContain('Rampart held no reading from before the start');
  });

  it('says up front when confirming not paid needs a passkey', () => {
    expect(text(facts({ confirmNeedsPasskey: true }))).toContain('confirming not paid needs the confirmer’s passkey');
  });
});
