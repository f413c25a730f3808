/**
 * The offramp form's beneficiary picker (11): approved payees, marked when their
 * details are only as stated; and, instead of an empty list, what to do next. Pure.
 */
import { isIdLike } from '../../../domain/identity-query.js';
import type { BeneficiaryEntry } from '../../../domain/registry-entries.js';
import { echo, group, note, type OptionGroup, option } from './identity-options.js';

// Only a name the service's lookup returned is said to come from it.
const HOLDER_NOTE = { lookup: ' (bank lookup)', typed: ' (as typed by the requester)', unknown: '' } as const;

const payee = (b: BeneficiaryEntry) =>
  b.asStated
    ? option(`${b.label} · ${b.bankName} ${b.accountMasked}`, b.id, `as stated when registered · ${b.id}`)
    : option(
        b.label,
        b.id,
        b.holderName ? `holder ${b.holderName}${HOLDER_NOTE[b.holderSource ?? 'unknown']}` : undefined,
      );

const nextSteps = () => [
  note('Already at the service? Use an existing beneficiary id…', 'the button under this field', 'register'),
  note('A new bank account? New beneficiary…', 'the button under this field: looked up, then approved', 'new'),
];

export function beneficiaryOptionGroups(found: BeneficiaryEntry[], query: string): OptionGroup[] {
  const q = query.trim();
  if (found.length > 0) return [group('Approved beneficiaries', found.slice(0, 100).map(payee))];
  if (q === '') return [group('No beneficiaries in Rampart yet', nextSteps())];
  const label = isIdLike(q) && /\d/.test(q) ? `${echo(q)} is not registered in Rampart` : `Nothing matches ${echo(q)}`;
  return [group(label, nextSteps())];
}
