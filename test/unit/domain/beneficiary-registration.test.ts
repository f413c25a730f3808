import { describe, expect, it } from 'vitest';
import { statedProblems, toStated } from '../../../src/domain/beneficiary-registration.js';

const good = {
  beneficiary_id: 'ben_4c1d9e',
  identity_id: 'idn_3f9c0a',
  label: 'Ngozi Eze · GTBank',
  bank_name: 'Guaranty Trust Bank',
  account_last4: '6789',
};

describe('a beneficiary registered as it already exists', () => {
  it('accepts an id, an identity, a label, a bank and four digits', () => {
    expect(statedProblems(good)).toEqual({});
    expect(toStated({ ...good, label: '  Ngozi   Eze ' })).toMatchObject({ label: 'Ngozi Eze' });
  });

  it('refuses a BVN where a label or an id belongs, and a whole account number, without repeating them', () => {
    const problems = statedProblems({
      beneficiary_id: '22211133344',
      identity_id: 'idn 3f9c',
      label: 'Ngozi 22211133344',
      bank_name: 'GTBank 0123456789',
      account_last4: '0123456789',
    });
    expect(problems).toEqual({
      beneficiary_id: "The beneficiary id looks like a BVN (11 digits); give the service's id, e.g. ben_4c1d9e.",
      identity_id: 'The identity id has spaces or other characters; it is one word, e.g. idn_3f9c0a.',
      label: 'The label holds an 11-digit number, which looks like a BVN; leave it out.',
      bank_name: 'The bank name holds a long number, like an account number; leave it out.',
      account_last4: 'Give only the last four digits of the account; Rampart never keeps a full account number.',
    });
    expect(JSON.stringify(problems)).not.toMatch(/\d{8,}/);
  });

  it('names every missing value', () => {
    expect(
      Object.keys(statedProblems({ beneficiary_id: '', identity_id: '', label: '', bank_name: '', account_last4: '' })),
    ).toEqual(['beneficiary_id', 'identity_id', 'label', 'bank_name', 'account_last4']);
  });
});
