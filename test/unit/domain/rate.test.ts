import { describe, expect, it } from 'vitest';
import { parseRate } from '../../../src/domain/rate.js';

describe('parseRate', () => {
  it('reads a count per unit, with an optional burst, and off', () => {
    expect(parseRate('5/s')).toEqual({ intervalMs: 200, burst: 1, text: '5/s' });
    expect(parseRate(' 300 / m ')).toEqual({ intervalMs: 200, burst: 1, text: '300 / m' });
    expect(parseRate('2/s burst 10')).toEqual({ intervalMs: 500, burst: 10, text: '2/s burst 10' });
    expect(parseRate('OFF')).toBeUndefined();
  });

  it('says what is wrong in one sentence', () => {
    expect(parseRate('5 per second')).toBe(
      '"5 per second" is not a rate: write it like 5/s, 300/m or 2/s burst 10, or off',
    );
    expect(parseRate('0/s')).toBe('"0/s" allows nothing: use a count above zero, or off');
    expect(parseRate('5000/s')).toBe('"5000/s" is faster than one per millisecond; use off for no limit');
    expect(parseRate('1/s burst 0')).toBe('"1/s burst 0" has a burst outside 1 to 10000');
  });
});
