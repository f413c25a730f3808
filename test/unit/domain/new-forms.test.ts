import { describe, expect, it } from 'vitest';
import { checkCrossBorderForm, reasonProblem } from '../../../src/domain/beneficiary-form.js';
import { checkIdentityForm, isRealDate, toServiceDob } from '../../../src/domain/identity-form.js';

const today = new Date(Date.UTC(2026, 10, 23));

describe('identity form (spec 4.5)', () => {
  it('turns the datepicker date into DD-MM-YYYY and refuses impossible or future dates', () => {
    expect(toServiceDob('1990-02-01', today)).toBe('01-02-1990');
    expect(() => toServiceDob(undefined, today)).toThrow('Pick the date of birth.');
    expect(() => toServiceDob('2001-02-29', today)).toThrow('That is not a real date of birth.');
    expect(() => toServiceDob('1899-12-31', today)).toThrow('That is not a real date of birth.');
    expect(() => toServiceDob('2026-11-24', today)).toThrow('A date of birth cannot be in the future.');
    expect(isRealDate(29, 2, 2000)).toBe(true);
  });

  it('checks every field at once', () => {
    expect(checkIdentityForm({ name: '', bvn: 'abc', dob: null }, today)).toEqual({
      errors: {
        name: 'Type the full name as registered with the bank.',
        bvn: 'A BVN is exactly 11 digits.',
        dob: 'Pick the date of birth.',
      },
    });
  });
});

describe('beneficiary forms (spec 2.10 variant 2)', () => {
  it('wants a reason of a few characters', () => {
    expect(reasonProblem(' ab ')).toMatch(/approvers see it/);
    expect(reasonProblem('payroll')).toBeUndefined();
  });

  it('keeps only the filled fields, and the address with a numeric house number', () => {
    const fields: Record<string, string> = {
      account_number: '12345678',
      swift_code: 'BARCGB22',
      addr_house_no: '7',
      addr_street: 'High St',
      addr_city: 'Leeds',
      addr_state: 'Yorkshire',
      addr_postal_code: 'LS1',
      addr_country: 'GB',
    };
    expect(checkCrossBorderForm((id) => fields[id] ?? '')).toEqual({
      errors: {},
      details: {
        account_number: '12345678',
        swift_code: 'BARCGB22',
        bank_address: {
          house_no: 7,
          street: 'High St',
          city: 'Leeds',
          state: 'Yorkshire',
          postal_code: 'LS1',
          country: 'GB',
        },
      },
    });
  });
});
