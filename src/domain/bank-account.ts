/**
 * Nigerian bank account rules (spec 4.3 and 4.7 leave the formats open; README "Choices"): a bank
 * code of 3–6 digits and a 10-digit NUBAN. One place for the rule and the sentences people read.
 */
export const BANK_CODE = /^\d{3,6}$/;
export const NUBAN = /^\d{10}$/;

export const BANK_CODE_PROBLEM = 'A bank code is 3 to 6 digits, e.g. 058.';
export const NUBAN_PROBLEM = 'A Nigerian account number (NUBAN) has exactly 10 digits.';

export interface NigerianAccount {
  bankCode: string;
  accountNumber: string;
}

export type AccountErrors = Partial<Record<'bank_code' | 'account_number', string>>;

/** Checks both fields at once, so a form shows every problem in one go. */
export function checkNigerianAccount(
  bankCode: string,
  accountNumber: string,
): { account: NigerianAccount } | { errors: AccountErrors } {
  const code = bankCode.trim();
  const number = accountNumber.trim();
  const errors: AccountErrors = {};
  if (!BANK_CODE.test(code)) errors.bank_code = BANK_CODE_PROBLEM;
  if (!NUBAN.test(number)) errors.account_number = NUBAN_PROBLEM;
  if (errors.bank_code || errors.account_number) return { errors };
  return { account: { bankCode: code, accountNumber: number } };
}

/** `058 0123456789` as typed after a command: the first problem as one sentence naming the value, or the account. */
export function parseAccountWords(text: string): NigerianAccount | { problem: string } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length !== 2) return { problem: 'Give a bank code and an account number.' };
  const [bankCode, accountNumber] = words as [string, string];
  if (!BANK_CODE.test(bankCode)) return { problem: `"${bankCode}" is not a bank code; it is 3 to 6 digits, e.g. 058.` };
  if (!NUBAN.test(accountNumber)) {
    const count = /^\d+$/.test(accountNumber) ? String(accountNumber.length) : 'other characters';
    return { problem: `A Nigerian account number (NUBAN) has exactly 10 digits; "${accountNumber}" has ${count}.` };
  }
  return { bankCode, accountNumber };
}
