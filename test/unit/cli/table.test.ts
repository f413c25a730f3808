/** The pure formatting under every table the CLI prints. */
import { describe, expect, it } from 'vitest';
import { keyValues, table } from '../../../src/adapters/cli/table.js';
import { maskTail } from '../../../src/domain/personal-data.js';

describe('table', () => {
  it('pads columns to their widest cell, right-aligns numbers and trims line ends', () => {
    const text = table(
      [{ title: 'Asset' }, { title: 'Amount', align: 'right' }, { title: 'Note' }],
      [
        ['USDC', '1,250.50', ''],
        ['cNGN', '15,000,000.00', 'big'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'Asset         Amount  Note',
      'USDC        1,250.50  —',
      'cNGN   15,000,000.00  big',
    ]);
  });

  it('keeps one row per line whatever the cell holds', () => {
    expect(table([{ title: 'Detail' }], [['two\nlines']])).toBe('Detail\ntwo lines');
  });

  it('counts "•" as one column', () => {
    expect(
      keyValues([
        ['BVN', '••••5678'],
        ['Account number', 'x'],
      ]),
    ).toBe('BVN             ••••5678\nAccount number  x');
  });
});

describe('maskTail', () => {
  it('shows the last four characters only, and nothing of a short value', () => {
    expect(maskTail('22212345678')).toBe('••••5678');
    expect(maskTail('123')).toBe('••••');
  });
});
