/** Exact decimal amounts: parsing user text, formatting, and the wire number (spec 4.2). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountFromNumber,
  amountToString,
  amountToWire,
  formatAmount,
  parseAmount,
} from '../../../src/domain/amount.js';
import { InputError } from '../../../src/errors.js';

describe('parseAmount', () => {
  it.each([
    ['250', 6, 250_000_000n],
    ['12.5', 6, 12_500_000n],
    ['0.000001', 6, 1n],
    ['1,234.56', 6, 1_234_560_000n],
    ['1_000', 2, 100_000n],
    [' 7.10 ', 2, 710n],
    ['1.1234560', 6, 1_123_456n],
  ])('%j with %i decimals is %s units', (text, decimals, units) => {
    expect(parseAmount(text, decimals)).toEqual({ units, decimals });
  });

  it.each(['0', '0.000', '0.0000001'])('refuses %j as not more than zero (or too fine)', (text) => {
    expect(() => parseAmount(text, 6)).toThrow(InputError);
  });

  it('refuses zero with a message that says so', () => {
    expect(() => parseAmount('0', 6)).toThrow('The amount must be more than zero.');
  });

  it.each(['-5', '-0.1', 'abc', '', '1e6', '1.2.3', '.5', '5.', '$5', 'Infinity', 'NaN'])('refuses %j', (text) => {
    expect(() => parseAmount(text, 6)).toThrow(InputError);
  });

  it('refuses more decimals than the asset has, naming both counts', () => {
    expect(() => parseAmount('1.1234567', 6)).toThrow('This asset has 6 decimal places; 1.1234567 has 7.');
  });

  it('accepts 15 significant digits and refuses 16 (beyond an exact JSON number)', () => {
    expect(amountToWire(parseAmount('999999999999999', 6))).toBe(999_999_999_999_999);
    expect(() => parseAmount('1000000000000000', 6)).toThrow(/too large/);
    expect(() => parseAmount('1.000000000000001', 18)).toThrow(/too large/);
  });

  it('names the field it was given', () => {
    expect(() => parseAmount('x', 6, 'limit')).toThrow(expect.objectContaining({ field: 'limit' }));
    expect(() => parseAmount('x', 6)).toThrow(expect.objectContaining({ field: 'amount', code: 'INPUT_INVALID' }));
  });

  it('adds 0.1 and 0.2 exactly in units, where floats drift', () => {
    const sum = parseAmount('0.1', 6).units + parseAmount('0.2', 6).units;
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(amountToString({ units: sum, decimals: 6 })).toBe('0.3');
    expect(amountToWire({ units: sum, decimals: 6 })).toBe(0.3);
  });
});

describe('formatAmount and amountToString', () => {
  it.each([
    [1_234_567_500_000n, 6, '1,234,567.50'],
    [500_000n, 6, '0.50'],
    [1_123_456n, 6, '1.123456'],
    [1_000n, 0, '1,000'],
    [-123_450n, 2, '-1,234.50'],
    [100_000_000n, 2, '1,000,000.00'],
  ])('%s units at %i decimals formats as %s', (units, decimals, text) => {
    expect(formatAmount({ units, decimals })).toBe(text);
  });

  it('shows at least minFraction decimals', () => {
    expect(formatAmount({ units: 5_000_000n, decimals: 6 }, 0)).toBe('5');
    expect(formatAmount({ units: 5_000_000n, decimals: 6 }, 4)).toBe('5.0000');
  });

  it('amountToString has no separators, exponent or trailing zeros', () => {
    expect(amountToString({ units: 120_000_500_000n, decimals: 6 })).toBe('120000.5');
    expect(amountToString({ units: 1n, decimals: 18 })).toBe('0.000000000000000001');
  });

  it('amountFromNumber reads service figures into units', () => {
    expect(amountFromNumber(120_000.5, 6)).toEqual({ units: 120_000_500_000n, decimals: 6 });
    expect(amountFromNumber(-2.25, 2)).toEqual({ units: -225n, decimals: 2 });
    expect(amountFromNumber(0, 6)).toEqual({ units: 0n, decimals: 6 });
  });
});

describe('properties', () => {
  // What parseAmount accepts: positive, at most 15 significant digits.
  const amounts = fc.record({
    units: fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }),
    decimals: fc.integer({ min: 0, max: 18 }),
  });

  it('parse(format(x)) gives back the same units', () => {
    fc.assert(
      fc.property(amounts, fc.integer({ min: 0, max: 6 }), ({ units, decimals }, minFraction) => {
        expect(parseAmount(formatAmount({ units, decimals }, minFraction), decimals).units).toBe(units);
      }),
    );
  });

  it('parse(amountToString(x)) gives back the same units', () => {
    fc.assert(
      fc.property(amounts, ({ units, decimals }) => {
        expect(parseAmount(amountToString({ units, decimals }), decimals).units).toBe(units);
      }),
    );
  });

  it('the wire number reads back to the same units (client and sandbox agree)', () => {
    fc.assert(
      fc.property(amounts, ({ units, decimals }) => {
        expect(amountFromNumber(amountToWire({ units, decimals }), decimals).units).toBe(units);
      }),
    );
  });
});

describe('amounts from service numbers', () => {
  it('truncates toward zero, never overstating a balance', async () => {
    const { amountFromNumber } = await import('../../../src/domain/amount.js');
    expect(amountFromNumber(0.0000019, 6).units).toBe(1n);
    expect(amountFromNumber(-0.0000019, 6).units).toBe(-1n);
    expect(amountFromNumber(1e21, 6).units).toBe(10n ** 27n);
    expect(amountFromNumber(120000.5, 6).units).toBe(120_000_500_000n);
  });
});

describe('a decimal comma never changes an amount', () => {
  const POINT = 'use a point for decimals';

  it.each(['12,50', '0,5', '1,2,3,4', '1,25', '1,2345', '12,345,67', '1.234,56', '0,500', ',500', '1,000_000'])(
    'refuses %j, saying to use a point for decimals',
    (text) => {
      expect(() => parseAmount(text, 6)).toThrow(POINT);
    },
  );

  it.each([
    ['1,250.50', 1_250_500_000n],
    ['12,345,678', 12_345_678_000_000n],
    ['1,000', 1_000_000_000n],
    ['999', 999_000_000n],
  ])('accepts %j as exact thousands grouping', (text, units) => {
    expect(parseAmount(text, 6).units).toBe(units);
  });

  // Any text with a comma is either refused or read exactly as its digits grouped in threes.
  const commaText = fc
    .array(fc.constantFrom('0', '1', '2', '5', '9', ',', '.'), { minLength: 1, maxLength: 14 })
    .map((cs) => cs.join(''))
    .filter((t) => t.includes(','));

  it('reads a comma only where it groups thousands exactly', () => {
    fc.assert(
      fc.property(commaText, (text) => {
        let parsed: bigint | undefined;
        try {
          parsed = parseAmount(text, 6).units;
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
          return;
        }
        const [whole = '', fraction] = text.split('.');
        expect(whole).toMatch(/^[1-9]\d{0,2}(,\d{3})+$/);
        expect(parsed).toBe(parseAmount(`${whole.replaceAll(',', '')}${fraction ? `.${fraction}` : ''}`, 6).units);
      }),
    );
  });

  it('refuses a comma followed by anything but three digits, with the sentence about points', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), fc.stringMatching(/^\d{1,2}$|^\d{4,6}$/), (head, tail) => {
        expect(() => parseAmount(`${head},${tail}`, 6)).toThrow(POINT);
      }),
    );
  });
});
