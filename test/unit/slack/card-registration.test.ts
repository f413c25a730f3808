import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import type { StatedBeneficiary } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord } from '../../support/factories.js';

const rows = (n: number): StatedBeneficiary[] =>
  Array.from({ length: n }, (_, i) => ({
    beneficiary_id: `ben_${String(i).padStart(6, '0')}`,
    identity_id: 'idn_5f0c2a91',
    label: `Supplier number ${i} · Lagos`,
    bank_name: 'Guaranty Trust Bank',
    account_last4: String(1000 + (i % 9000)),
  }));

function card(n: number) {
  const record = buildRecord('pending', 'register-beneficiary');
  record.sealed.call = { kind: 'register-beneficiary', body: { beneficiaries: rows(n) } };
  record.sealed.display = { ...record.sealed.display, importFile: 'day-one.csv' };
  return requestCardBlocks(record);
}

describe('the card of a registration of existing beneficiaries', () => {
  it('separates what the service checked from what is only stated', () => {
    const text = readableTexts(card(1)).join('\n');
    expect(text).toContain('*Registers 1 beneficiary that already exist at the service*');
    expect(text).toContain('• `ben_000000` · Supplier number 0 · Lagos · Guaranty Trust Bank ••••1000');
    expect(text).toContain(':white_check_mark: *Checked with the service:* identity `idn_5f0c2a91` (BVN ••••4455)');
    expect(text).toContain(':warning: *As stated by <@U0REQUESTER>, not checked:*');
  });

  it('lists 500 rows within Block Kit’s limits, summarising what does not fit', () => {
    const blocks = card(500);
    expect(checkBlockKitLimits('message', { blocks })).toEqual([]);
    const text = readableTexts(blocks).join('\n');
    expect(text).toMatch(/…and 4\d\d more: `rampart requests show R-1001` lists every row\./);
    expect(text).toContain('from `day-one.csv`');
  });
});
