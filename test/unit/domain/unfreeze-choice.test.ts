/** The unfreeze card's choice is "unfreeze" or "cancel"; proposals stored before read the same. */
import { describe, expect, it } from 'vitest';
import { unfreezeChoiceOf } from '../../../src/domain/freeze-state.js';

describe('unfreezeChoiceOf', () => {
  it('reads a stored vote or decision as unfreeze or cancel, the old "release" as unfreeze', () => {
    expect(unfreezeChoiceOf('unfreeze')).toBe('unfreeze');
    expect(unfreezeChoiceOf('release')).toBe('unfreeze');
    expect(unfreezeChoiceOf('cancel')).toBe('cancel');
  });

  it('reads anything else as no choice', () => {
    expect(unfreezeChoiceOf(undefined)).toBeUndefined();
    expect(unfreezeChoiceOf('')).toBeUndefined();
    expect(unfreezeChoiceOf('run')).toBeUndefined();
  });
});
