/** One BVN mask, one date format, real plurals. */
import { describe, expect, it } from 'vitest';
import { slackDate } from '../../../src/adapters/slack/blocks/common.js';
import { identityOptionGroups } from '../../../src/adapters/slack/blocks/identity-options.js';
import { rateBlocks } from '../../../src/adapters/slack/blocks/rate.js';
import { bvnText, maskBvn } from '../../../src/domain/personal-data.js';
import { plural, pluralWord } from '../../../src/domain/words.js';
import { readableTexts } from '../../support/block-texts.js';

describe('one BVN mask', () => {
  it('shows the last four digits behind four dots, from the whole BVN or the four Rampart keeps', () => {
    const masks: [string | undefined, string][] = [
      ['22212345667', '••••5667'],
      ['5667', '••••5667'],
      ['12', 'not shown'],
      [undefined, 'not shown'],
    ];
    for (const [bvn, shown] of masks) expect(maskBvn(bvn), String(bvn)).toBe(shown);
    expect(bvnText('22212345667')).toBe('BVN ••••5667');
    expect(bvnText('')).toBe('BVN not shown');
  });

  it('the identity picker uses the same mask', () => {
    const entry = { id: 'idn_1', name: 'Ada Obi', type: 'bvn', bvnLast4: '5667', createdBy: 'U1', createdAt: 0 };
    expect(JSON.stringify(identityOptionGroups({ known: [entry] as never }, '', 0))).toContain('BVN ••••5667');
  });
});

describe('one date format', () => {
  it('every date people read is day and time, in their zone, with a UTC fallback', () => {
    expect(slackDate(Date.UTC(2026, 10, 21, 9, 30))).toBe(
      '<!date^1795253400^{date_short_pretty} {time}|2026-11-21 09:30 UTC>',
    );
    expect(readableTexts(rateBlocks('NGN', 1532.75, Date.UTC(2026, 10, 21, 9, 30)))[1]).toContain(
      '<!date^1795253400^{date_short_pretty} {time}|2026-11-21 09:30 UTC>',
    );
  });
});

describe('real plurals', () => {
  it('says 1 approval, 2 approvals, 1 beneficiary, 3 beneficiaries', () => {
    expect(plural(1, 'approval')).toBe('1 approval');
    expect(plural(2, 'approval')).toBe('2 approvals');
    expect(plural(0, 'approval')).toBe('0 approvals');
    expect(plural(1, 'beneficiary', 'beneficiaries')).toBe('1 beneficiary');
    expect(plural(3, 'beneficiary', 'beneficiaries')).toBe('3 beneficiaries');
    expect(pluralWord(1, 'is', 'are')).toBe('is');
  });
});
