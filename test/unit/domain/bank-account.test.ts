import { describe, expect, it } from 'vitest';
import { checkNigerianAccount, parseAccountWords } from '../../../src/domain/bank-account.js';

describe('Nigerian bank accounts', () => {
  it('accepts a 3–6 digit bank code and a 10-digit NUBAN, trimmed', () => {
    expect(checkNigerianAccount(' 058 ', '0123456789')).toEqual({
      account: { bankCode: '058', accountNumber: '0123456789' },
    });
  });

  it('names every bad field at once', () => {
    expect(checkNigerianAccount('58', '12345')).toEqual({
      errors: {
        bank_code: 'A bank code is 3 to 6 digits, e.g. 058.',
        account_number: 'A Nigerian account number (NUBAN) has exactly 10 digits.',
      },
    });
  });

  it('reads "bank_code account_number" as typed after a command', () => {
    expect(parseAccountWords('058 0123456789')).toEqual({ bankCode: '058', accountNumber: '0123456789' });
    expect(parseAccountWords('058')).toEqual({ problem: 'Give a bank code and an account number.' });
    expect(parseAccountWords('058 01234-56789')).toEqual({
      problem: 'A Nigerian account number (NUBAN) has exactly 10 digits; "01234-56789" has other characters.',
    });
  });
});
