/** Balances count only as a drop, and only with no other payment between the readings. */
import { describe, expect, it } from 'vitest';
import { ageText, balanceVerdict } from '../../../src/domain/outcome-evidence.js';

const r = (at: number, available: number) => ({ at, available });

describe('balanceVerdict', () => {
  it('a drop of at least the amount after the start is consistent with paid', () => {
    expect(balanceVerdict({ amount: 77.77, before: r(1, 1000), atUnknown: r(3, 922.23), others: [] })).toMatchObject({
      kind: 'drop',
    });
    // A debit that landed after the unknown was recorded shows in the reading taken now.
    expect(
      balanceVerdict({ amount: 77.77, before: r(1, 1000), atUnknown: r(3, 1000), now: r(5, 922.23), others: [] }),
    ).toMatchObject({ kind: 'drop', after: { at: 5 } });
  });

  it('no drop, or a rise, is never "not paid": it cannot tell', () => {
    expect(balanceVerdict({ amount: 77.77, before: r(1, 1000), atUnknown: r(3, 1000), others: [] }).kind).toBe(
      'cannot-tell',
    );
    expect(balanceVerdict({ amount: 77.77, before: r(1, 1000), now: r(3, 1500), others: [] }).kind).toBe('cannot-tell');
  });

  it('another Rampart payment on the wallet between the readings makes the balances silent, naming it', () => {
    expect(
      balanceVerdict({ amount: 5, before: r(1, 1000), atUnknown: r(3, 900), others: ['R-12.1', 'B-3.4'] }),
    ).toEqual({ kind: 'others', others: ['R-12.1', 'B-3.4'] });
  });

  it('without a reading from before the start there is nothing to compare', () => {
    expect(balanceVerdict({ amount: 5, atUnknown: r(3, 900), others: [] }).kind).toBe('no-before');
    expect(balanceVerdict({ amount: 5, before: r(1, 900), others: [] }).kind).toBe('no-after');
  });

  it('says a reading’s age in words', () => {
    expect(ageText(20_000)).toBe('under a minute');
    expect(ageText(4 * 60_000)).toBe('4 min');
    expect(ageText(5 * 3_600_000)).toBe('5 h');
  });
});
