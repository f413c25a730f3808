import { describe, expect, it } from 'vitest';
import { isIdentityIdQuery, looksLikeBvn, shortId } from '../../../src/domain/identity-query.js';

describe('what was typed in an identity picker', () => {
  it('checks one-word queries with a digit, at least six characters long, with the service', () => {
    expect(isIdentityIdQuery('idn_3f9c0a41b2')).toBe(true);
    expect(isIdentityIdQuery('5f0c2b6e-9d1a-4c3e-8f00-1234567890ab')).toBe(true);
    expect(isIdentityIdQuery('adaeze')).toBe(false); // a name: registry only
    expect(isIdentityIdQuery('4455')).toBe(false); // last digits: registry only
    expect(isIdentityIdQuery('idn 123456')).toBe(false);
  });

  it('never treats a BVN or a NUBAN as an id to send to the service', () => {
    expect(looksLikeBvn('222 1113 3344')).toBe(true);
    expect(isIdentityIdQuery('22211133344')).toBe(false);
    expect(isIdentityIdQuery('0123456789')).toBe(false);
  });

  it('shortens long ids to fit an option label', () => {
    expect(shortId('idn_0123456789abcdef')).toBe('idn_0123…cdef');
    expect(shortId('idn_short')).toBe('idn_short');
  });
});
