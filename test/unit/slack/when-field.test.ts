/** The When field of the payment forms and /batch, read one way. */
import { describe, expect, it } from 'vitest';
import { isNow, whenField } from '../../../src/adapters/slack/views/when-field.js';

describe('the When field', () => {
  it('empty or "now" (any case, spaces around) runs once approved', () => {
    for (const typed of [undefined, '', '  ', 'now', ' NOW ']) {
      expect(isNow(typed), String(typed)).toBe(true);
      expect(whenField(typed, 'Africa/Lagos')).toEqual({});
    }
  });

  it('a wall-clock time is read in the zone; anything else is left for the app to answer at the field', () => {
    expect(whenField(' 2026-12-04 09:00 ', 'Africa/Lagos')).toEqual({
      runAt: { at: Date.UTC(2026, 11, 4, 8, 0), zone: 'Africa/Lagos' },
    });
    expect(whenField('tomorrowish', 'UTC')).toEqual({ runAt: { at: undefined, zone: 'UTC' } });
  });
});
