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
    expect(formatAmountText('50000')).toBe('50,000.00');
    expect(formatAmountText('1234.994')).toBe('1,234.994');
    expect(formatAmountText('29500.25')).toBe('29,500.25');
    expect(formatAmountText('-650000')).toBe('-650,000.00');
    expect(formatAmountText('0.5')).toBe('0.50');
    expect(formatAmountText('all')).toBe('all');
  });
  it('names assets and chains as listed', () => {
    expect(assetCode('bsc:cngn')).toBe('cNGN');
    expect(assetCode('CNGN')).toBe('cNGN');
    expect(chainName('bsc')).toBe('BNB Smart Chain');
    expect(assetName('bsc:cngn')).toBe('cNGN on BNB Smart Chain');
    expect(assetWithChain('base:usdc')).toBe('USDC (Base)');
  });
});
