/** `/addresses`: a Remove button per live entry, its confirmation and spoken label; pure. */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { findElement } from '../../../devkit/view-state.js';
import {
  ADDRESSES_REMOVE_PATTERN,
  addressListBlocks,
  removeActionId,
  removedNotice,
} from '../../../src/adapters/slack/blocks/addresses.js';
import type { AddressEntry } from '../../../src/domain/address-book.js';

const NOW = Date.UTC(2026, 10, 28, 12);
const entry = (id: string, name: string, extra: Partial<AddressEntry> = {}): AddressEntry => ({
  id,
  key: `evm:0x99ed${id}`,
  name,
  chain: 'base',
  address: '0x99EDe97A2b4c0000000000000000000000EdcF',
  wallets: '*',
  addedBy: 'U0ADDER',
  approvedBy: 'U0APPROVER',
  requestId: 'R-1001',
  approvedAt: NOW - 3_600_000,
  usableAt: NOW - 60_000,
  ...extra,
});

type Button = {
  action_id: string;
  value: string;
  accessibility_label: string;
  confirm: { text: { text: string } };
};
const buttons = (blocks: unknown[]): Button[] =>
  blocks.flatMap((b) => {
    const accessory = (b as { accessory?: Button }).accessory;
    return accessory && ADDRESSES_REMOVE_PATTERN.test(accessory.action_id) ? [accessory] : [];
  });

describe('the address list', () => {
  it('gives each live entry a Remove button whose confirmation names it and says what it stops', () => {
    const blocks = addressListBlocks(
      [entry('A-1', 'Acme payroll wallet'), entry('A-2', 'Old supplier', { removedAt: NOW - 1, removedBy: 'U0X' })],
      'book',
      NOW,
      new Map([['A-1', 3]]),
    );
    expect(checkBlockKitLimits('message', { text: 'Address book', blocks })).toEqual([]);
    const [remove, ...others] = buttons(blocks);
    // The removed entry has none: there is nothing left to remove.
    expect(others).toEqual([]);
    expect(remove?.value).toBe('A-1');
    expect(remove?.confirm.text.text).toContain('Acme payroll wallet 0x99ED…EdcF (A-1)');
    expect(remove?.confirm.text.text).toContain('stops 3 payments not yet sent');
    expect(findElement(blocks, removeActionId('A-1'))).toBeDefined();
  });

  it('says one payment, and none, in the singular and plural people read', () => {
    const one = buttons(addressListBlocks([entry('A-1', 'Acme')], 'book', NOW, new Map([['A-1', 1]])));
    expect(one[0]?.confirm.text.text).toContain('stops 1 payment not yet sent');
    const none = buttons(addressListBlocks([entry('A-1', 'Acme')], 'book', NOW));
    expect(none[0]?.confirm.text.text).toContain('stops 0 payments not yet sent');
  });

  it('speaks a label of at most 75 characters that names the entry, even at the longest name', () => {
    for (const name of ['Acme', 'N'.repeat(30), 'L'.repeat(60)]) {
      const [remove] = buttons(addressListBlocks([entry('A-123456', name)], 'book', NOW));
      expect(remove?.accessibility_label.length).toBeLessThanOrEqual(75);
      expect(remove?.accessibility_label).toContain(name);
      if (name.length < 40) expect(remove?.accessibility_label).toContain('A-123456');
    }
  });

  it('tells the approvals channel who removed which entry and what it stops', () => {
    expect(removedNotice(entry('A-1', 'Acme <payroll>'), 'U0REMOVER', 2)).toBe(
      ':no_entry_sign: <@U0REMOVER> removed Acme &lt;payroll&gt; 0x99ED…EdcF (A-1) from the address book; it stops 2 payments not yet sent to it.',
    );
  });
});
