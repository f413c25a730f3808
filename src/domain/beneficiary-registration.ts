/**
 * Rules for registering a beneficiary that already exists at the service: the id,
 * the identity it belongs to, and a label, bank and last four digits as the requester states
 * them. Pure. Sentences never repeat a long number that was typed.
 */
import { hasLongNumber, isIdLike, looksLikeBvn } from './identity-query.js';
import type { StatedBeneficiary } from './request.js';

export const STATED_FIELDS = ['beneficiary_id', 'identity_id', 'label', 'bank_name', 'account_last4'] as const;
export type StatedField = (typeof STATED_FIELDS)[number];
export type StatedInput = Record<StatedField, string>;
export type StatedProblems = Partial<Record<StatedField, string>>;

const idProblem = (what: string, value: string, example: string): string | undefined => {
  if (value === '') return `The ${what} id is missing; it is the service's id, e.g. ${example}.`;
  if (looksLikeBvn(value))
    return `The ${what} id looks like a BVN (11 digits); give the service's id, e.g. ${example}.`;
  if (!isIdLike(value)) return `The ${what} id has spaces or other characters; it is one word, e.g. ${example}.`;
  return undefined;
};

function textProblem(what: string, value: string, max: number): string | undefined {
  if (value.length < 2) return `The ${what} is missing.`;
  if (value.length > max) return `Keep the ${what} under ${max} characters.`;
  if (/\d{11}/.test(value)) return `The ${what} holds an 11-digit number, which looks like a BVN; leave it out.`;
  if (hasLongNumber(value)) return `The ${what} holds a long number, like an account number; leave it out.`;
  return undefined;
}

/** Every problem of one row, keyed by field, so a form or a file report shows them all at once. */
export function statedProblems(input: StatedInput): StatedProblems {
  const v = Object.fromEntries(STATED_FIELDS.map((f) => [f, input[f].trim()])) as StatedInput;
  const problems: StatedProblems = {};
  const put = (field: StatedField, problem: string | undefined) => {
    if (problem) problems[field] = problem;
  };
  put('beneficiary_id', idProblem('beneficiary', v.beneficiary_id, 'ben_4c1d9e'));
  put('identity_id', idProblem('identity', v.identity_id, 'idn_3f9c0a'));
  put('label', textProblem('label', v.label, 80));
  put('bank_name', textProblem('bank name', v.bank_name, 60));
  if (!/^\d{4}$/.test(v.account_last4))
    put(
      'account_last4',
      /^\d{5,}$/.test(v.account_last4)
        ? 'Give only the last four digits of the account; Rampart never keeps a full account number.'
        : 'Give the last four digits of the account, e.g. 6789.',
    );
  return problems;
}

export const toStated = (input: StatedInput): StatedBeneficiary => ({
  beneficiary_id: input.beneficiary_id.trim(),
  identity_id: input.identity_id.trim(),
  label: input.label.trim().replace(/\s+/g, ' '),
  bank_name: input.bank_name.trim().replace(/\s+/g, ' '),
  account_last4: input.account_last4.trim(),
});
