/** What a final request keeps: masked numbers, the same short hash, the full hash. */
import { expect, it } from 'vitest';
import { callSha256, redactSealed } from '../../../src/domain/redact.js';
import { callHash, type ServiceCall } from '../../../src/domain/request.js';
import { buildSealedRequest } from '../../support/factories.js';

const crossBorder: ServiceCall = {
  kind: 'beneficiary',
  body: {
    currency: 'ngn',
    identity_id: 'idn_1',
    details: { iban: 'GB33BUKB20201555555555', swift_code: 'BUKBGB22', bank_address: { city: 'London' } },
  },
};

it('masks IBANs and account numbers, keeps the short hash and adds the full hash of the original call', () => {
  const sealed = buildSealedRequest('beneficiary', { call: crossBorder });
  const kept = redactSealed(sealed, 5);
  expect(JSON.stringify(kept)).not.toContain('GB33BUKB20201555555555');
  expect(kept.call).toMatchObject({ body: { details: { iban: '••••5555', swift_code: 'BUKBGB22' } } });
  expect(kept.hash).toBe(callHash(crossBorder));
  expect(kept.redacted).toEqual({ at: 5, callSha256: callSha256(crossBorder) });
});

it('is idempotent, and leaves transfers (no personal data) as they were', () => {
  const once = redactSealed(buildSealedRequest('beneficiary', { call: crossBorder }), 5);
  expect(redactSealed(once, 9)).toBe(once);
  const transfer = buildSealedRequest('transfer');
  expect(redactSealed(transfer, 5).call).toEqual(transfer.call);
});

it('masks a BVN and a date of birth wherever they appear', () => {
  const call = {
    kind: 'beneficiary',
    body: { currency: 'ngn', identity_id: 'idn_1', details: { bvn: '22233344455', dob: '01-02-1990' } },
  } as const satisfies ServiceCall;
  const text = JSON.stringify(redactSealed(buildSealedRequest('beneficiary', { call }), 1));
  expect(text).not.toContain('22233344455');
  expect(text).not.toContain('01-02-1990');
});
