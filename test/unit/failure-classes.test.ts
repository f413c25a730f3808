/**
 * The one classifier and the masking of service text, as pure rules:
 * what counts as the service's own refusal, what "never sent" needs, what is hidden.
 */
import { describe, expect, it } from 'vitest';
import { maskServiceText } from '../../src/domain/personal-data.js';
import { InputError } from '../../src/errors.js';
import { classifyFailure, isServiceRefusal, outcomeOfFailure } from '../../src/service/classify.js';
import { ServiceError } from '../../src/service/errors.js';

const envelope = (status: number) => ({ success: false, status, message: 'no', timestamp: 'now' });
const serviceError = (mayHaveReached: boolean, refused = false) =>
  new ServiceError('SERVICE_UNAVAILABLE', 'x', { operation: 'transfer', mayHaveReached, refused });

describe('classifyFailure', () => {
  it.each([
    ['no byte written', serviceError(false), 'never-sent'],
    ['written, then anything', serviceError(true), 'ambiguous'],
    ["the service's own refusal", serviceError(true, true), 'refused'],
    ["Rampart's own check before sending", new InputError('amount: too many decimals', 'amount'), 'refused'],
    ['an error Rampart did not expect', new Error('boom'), 'ambiguous'],
    ['a thrown non-error', 'boom', 'ambiguous'],
  ])('%s → %s', (_name, err, expected) => {
    expect(classifyFailure(err)).toBe(expected);
  });

  it('ambiguous ends unknown only for calls that create or move something', () => {
    for (const op of ['transfer', 'offramp', 'createBeneficiary', 'createIdentity', 'createUser'] as const)
      expect(outcomeOfFailure(op, serviceError(true))).toBe('unknown');
    for (const op of ['getWallet', 'getBalances', 'getOnrampRate', 'getIdentity', 'lookupAccount'] as const)
      expect(outcomeOfFailure(op, serviceError(true))).toBe('failed');
    expect(outcomeOfFailure('transfer', serviceError(true, true))).toBe('failed');
  });
});

describe('isServiceRefusal', () => {
  it.each([
    [400, envelope(400), true],
    [422, envelope(422), true],
    [200, envelope(409), true],
    [500, envelope(500), false],
    [200, envelope(503), false],
    [502, envelope(400), false],
    [400, { error: 'bad request' }, false],
    [400, { success: false }, false],
    [400, undefined, false],
    [302, envelope(400), false],
  ])('HTTP %i with %j → %s', (status, body, expected) => {
    expect(isServiceRefusal(status, body)).toBe(expected);
  });
});

describe('maskServiceText', () => {
  it('replaces every configured secret wherever it occurs, even inside words', () => {
    expect(maskServiceText('k=abcdefgh12;again abcdefgh12', ['abcdefgh12'])).toBe('k=[secret];again [secret]');
  });

  it('ignores "secrets" too short to be real, so ordinary words survive', () => {
    expect(maskServiceText('a key was sent', ['k'])).toBe('a key was sent');
  });

  it.each([
    ['born 01-02-1990', 'born ••-••-••••'],
    ['born 1/2/1990', 'born ••-••-••••'],
    ['born 1990-02-01', 'born ••-••-••••'],
    ['born 01.02.1990', 'born ••-••-••••'],
    ['BVN 22233344455', 'BVN ••••4455'],
    ['BVN 222 333 444 55', 'BVN ••••4455'],
    ['account 0123-456-789', 'account ••••6789'],
    ['account 0123456789', 'account ••••6789'],
  ])('masks %j', (text, masked) => {
    expect(maskServiceText(text)).toBe(masked);
  });

  it('leaves amounts and short numbers readable', () => {
    expect(maskServiceText('insufficient balance: 120000.50 available, 250 requested (code 4012)')).toBe(
      'insufficient balance: 120000.50 available, 250 requested (code 4012)',
    );
  });
});
