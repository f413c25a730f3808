/**
 * The "new beneficiary" forms' rules (spec 4.3, 2.10): the reason approvers read, and the
 * cross-border fields with the full BankAddress. Pure; the Nigerian account rules are in
 * bank-account.ts.
 */

// spec 2.10 variant 2, in the order a person fills them.
export const CROSS_BORDER_FIELDS = [
  ['bank_name', 'Bank name'],
  ['account_name', 'Account holder name'],
  ['account_number', 'Account number'],
  ['iban', 'IBAN (Europe)'],
  ['swift_code', 'SWIFT/BIC'],
  ['routing_number', 'Routing number (USA)'],
  ['sort_code', 'Sort code (UK)'],
  ['transit_number', 'Transit number (Canada)'],
  ['ifsc_code', 'IFSC code (India)'],
  ['bsb_number', 'BSB number (Australia)'],
  ['clabe_number', 'CLABE (Mexico)'],
  ['cnaps_code', 'CNAPS code (China)'],
  ['clearing_code', 'Clearing code (Hong Kong)'],
  ['pix_code', 'PIX code (Brazil)'],
  ['ncc_number', 'NCC number'],
  ['branch_code', 'Branch code'],
] as const;

export const ADDRESS_FIELDS = [
  ['house_no', 'House number'],
  ['street', 'Street'],
  ['city', 'City'],
  ['state', 'State or province'],
  ['postal_code', 'Postal code'],
  ['country', 'Country code'],
] as const;

/** Field errors keyed by the form's block ids (`addr_street`, `reason`, …). */
export type BeneficiaryFormErrors = Record<string, string>;

export const REASON_PROBLEM = 'Say why this payout destination is needed; approvers see it.';

/** The reason approvers read: at least a few characters. */
export const reasonProblem = (reason: string): string | undefined =>
  reason.trim().length < 3 ? REASON_PROBLEM : undefined;

/**
 * The cross-border form, read by block id (`addr_<field>` for the address): the service's
 * `details`, or every problem at once.
 */
export function checkCrossBorderForm(field: (id: string) => string): {
  details: Record<string, unknown>;
  errors: BeneficiaryFormErrors;
} {
  const errors: BeneficiaryFormErrors = {};
  const details: Record<string, unknown> = {};
  for (const [id] of CROSS_BORDER_FIELDS) {
    const value = field(id);
    if (value) details[id] = value;
  }
  if (!details.account_number && !details.iban)
    errors.account_number = 'Give the account number or, in Europe, the IBAN.';
  const address: Record<string, unknown> = {};
  for (const [id, label] of ADDRESS_FIELDS) {
    const value = field(`addr_${id}`);
    if (!value) errors[`addr_${id}`] = `${label} is required in the bank address.`;
    else if (id === 'house_no' && !/^\d+$/.test(value)) errors.addr_house_no = 'The house number must be a number.';
    else address[id] = id === 'house_no' ? Number(value) : value;
  }
  details.bank_address = address;
  return { details, errors };
}
