/**
 * The request schemas shared by the client and the sandbox: assets (spec 2.2), bank details
 * (spec 2.10), BVN and date of birth (spec 4.5), and amounts (spec 4.2, 4.4).
 */
import { describe, expect, it } from 'vitest';
import { ASSET_IDS } from '../../../src/domain/assets.js';
import {
  assetId,
  bankDetails,
  createIdentityRequest,
  describeZodError,
  offrampRequest,
  transferRequest,
} from '../../../src/service/schemas.js';

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

const TRANSFER = {
  wallet_id: 'wal_1',
  amount: 1,
  receiver: '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68',
  asset: 'base:usdc',
};
const ADDRESS = {
  house_no: 12,
  street: 'King St',
  city: 'London',
  state: 'London',
  postal_code: 'EC2V',
  country: 'GB',
};

describe('assets (spec 2.2)', () => {
  it.each(ASSET_IDS)('accepts %s', (id) => {
    expect(accepts(assetId, id)).toBe(true);
    expect(accepts(transferRequest, { ...TRANSFER, asset: id })).toBe(true);
  });

  it('holds exactly the 17 listed identifiers', () => {
    expect(new Set(ASSET_IDS).size).toBe(17);
  });

  it.each(['ethereum:cngn', 'base:usdt', 'solana:cngn', 'tron:usdt', 'base:dai', 'BASE:USDC', 'base', ''])(
    'refuses %j',
    (id) => {
      expect(accepts(assetId, id)).toBe(false);
    },
  );

  it('names the asset field and the spec in the message', () => {
    const result = transferRequest.safeParse({ ...TRANSFER, asset: 'base:usdt' });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeZodError(result.error).message).toMatch(/^asset: "base:usdt" is not one of/);
  });
});

describe('bank details (spec 2.10)', () => {
  it('accepts the Nigerian variant', () => {
    expect(accepts(bankDetails, { bank_code: '058', account_number: '0123456789' })).toBe(true);
  });

  it('accepts the cross-border variant, with or without a bank address', () => {
    expect(accepts(bankDetails, { iban: 'DE89370400440532013000', swift_code: 'COBADEFFXXX' })).toBe(true);
    expect(accepts(bankDetails, { bank_name: 'Barclays', sort_code: '200000', bank_address: ADDRESS })).toBe(true);
  });

  it('refuses a mix of the two variants', () => {
    expect(
      accepts(bankDetails, { bank_code: '058', account_number: '0123456789', iban: 'DE89370400440532013000' }),
    ).toBe(false);
  });

  it('refuses extra properties in either variant', () => {
    expect(accepts(bankDetails, { bank_code: '058', account_number: '0123456789', nickname: 'x' })).toBe(false);
    expect(accepts(bankDetails, { iban: 'DE89370400440532013000', nickname: 'x' })).toBe(false);
    expect(accepts(bankDetails, { iban: 'DE89', bank_address: { ...ADDRESS, flat: 2 } })).toBe(false);
  });

  it('refuses an empty object, which fits neither variant', () => {
    expect(accepts(bankDetails, {})).toBe(false);
  });

  it.each(Object.keys(ADDRESS))('refuses a bank address missing %s', (field) => {
    const { [field as keyof typeof ADDRESS]: _gone, ...partial } = ADDRESS;
    expect(accepts(bankDetails, { iban: 'DE89370400440532013000', bank_address: partial })).toBe(false);
  });

  it('refuses a bank address whose house_no is not a number', () => {
    expect(accepts(bankDetails, { iban: 'DE89', bank_address: { ...ADDRESS, house_no: '12' } })).toBe(false);
  });
});

describe('identity: BVN and date of birth (spec 4.5)', () => {
  const identity = (bvn: string, dob: string) => ({ type: 'BVN', name: 'Ada Obi', details: { bvn, dob } });

  it.each(['29-02-2000', '01-01-1990', '31-12-1999'])('accepts dob %s', (dob) => {
    expect(accepts(createIdentityRequest, identity('12345678901', dob))).toBe(true);
  });

  it.each(['31-02-2000', '29-02-2001', '00-01-2000', '01-13-2000', '2000-02-29', '1-2-2000', '29/02/2000', ''])(
    'refuses dob %j',
    (dob) => {
      expect(accepts(createIdentityRequest, identity('12345678901', dob))).toBe(false);
    },
  );

  it.each(['1234567890', '123456789012', '1234567890a', ' 12345678901', ''])('refuses bvn %j', (bvn) => {
    expect(accepts(createIdentityRequest, identity(bvn, '01-01-1990'))).toBe(false);
  });

  it('names the field in the message without echoing the value', () => {
    const result = createIdentityRequest.safeParse(identity('1234567890', '01-01-1990'));
    expect(result.success).toBe(false);
    if (!result.success) {
      const { field, message } = describeZodError(result.error);
      expect(field).toBe('details.bvn');
      expect(message).toBe('details.bvn: must be exactly 11 digits');
    }
  });
});

describe('amounts', () => {
  it.each([
    [0.5, true],
    [1, true],
    [-1, true],
    [0, false],
    [-2, false],
    [-0.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [Number.NEGATIVE_INFINITY, false],
  ])('transfer amount %s accepted: %s', (amount, ok) => {
    expect(accepts(transferRequest, { ...TRANSFER, amount })).toBe(ok);
  });

  it('refuses a transfer amount given as a string', () => {
    expect(accepts(transferRequest, { ...TRANSFER, amount: '10' })).toBe(false);
  });

  it('offramp has no -1 (spec 4.4) and refuses 0', () => {
    const offramp = { wallet_id: 'wal_1', beneficiary_id: 'ben_1', asset: 'bsc:cngn' };
    expect(accepts(offrampRequest, { ...offramp, amount: 5000 })).toBe(true);
    expect(accepts(offrampRequest, { ...offramp, amount: -1 })).toBe(false);
    expect(accepts(offrampRequest, { ...offramp, amount: 0 })).toBe(false);
  });
});
