import { describe, expect, it } from 'vitest';
import { fullAddress, shortAddress } from '../../../src/presenters/address.js';
import { assetCode, assetName, assetWithChain, chainName, formatAmountText } from '../../../src/presenters/money.js';

const EVM = '0x99ED4a1F6bB0c2D3e4F5a6B7c8D9e0F1a2B3EdcF';

describe('address presenters', () => {
  it('short form is the first 6 and the last 4', () => {
    expect(shortAddress(EVM)).toBe('0x99ED…EdcF');
  });
  it('full form keeps every character, grouped in fours', () => {
    const full = fullAddress(EVM);
    expect(full).toBe('0x 99ED 4a1F 6bB0 c2D3 e4F5 a6B7 c8D9 e0F1 a2B3 EdcF');
    expect(full.replaceAll(' ', '')).toBe(EVM);
    const sol = '7Zb8AbcdEfghJkmnPqrsTuvwXyz12345D51r';
    expect(fullAddress(sol).replaceAll(' ', '')).toBe(sol);
    expect(fullAddress(sol).split(' ')[0]).toBe('7Zb8');
  });
});

describe('money presenters', () => {
  it('formats amounts like a total, never rounded', () => {
    const totals: [string, string][] = [
      ['50000', '50,000.00'],
      ['1234.994', '1,234.994'],
      ['29500.25', '29,500.25'],
      ['-650000', '-650,000.00'],
      ['0.5', '0.50'],
      ['all', 'all'],
    ];
    for (const [typed, shown] of totals) expect(formatAmountText(typed), typed).toBe(shown);
  });
  it('names assets and chains as listed', () => {
    const names: [(s: string) => string, string, string][] = [
      [assetCode, 'bsc:cngn', 'cNGN'],
      [assetCode, 'CNGN', 'cNGN'],
      [chainName, 'bsc', 'BNB Smart Chain'],
      [assetName, 'bsc:cngn', 'cNGN on BNB Smart Chain'],
      [assetWithChain, 'base:usdc', 'USDC (Base)'],
    ];
    for (const [name, listed, shown] of names) expect(name(listed), listed).toBe(shown);
  });
});
