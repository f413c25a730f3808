/**
 * What an approver needs to check a cross-border payout destination (DESIGN
 * invariant 7): the country, the bank's codes (not personal data, shown whole) and the account
 * number or IBAN with only its first and last characters visible. Pure.
 */

/** Who says the holder's name is right: the service's bank lookup, or the requester's typing. */
export type HolderSource = 'lookup' | 'typed';

export interface Destination {
  country?: string | undefined;
  /** SWIFT/BIC and routing-type codes as typed, e.g. { label: 'Sort code', value: '200000' }. */
  codes: { label: string; value: string }[];
  /** The account number or IBAN, masked in the middle. */
  account?: { label: string; masked: string } | undefined;
}

// spec 2.10 variant 2: the bank's identifiers, in the order an approver reads them.
const BANK_CODES = [
  ['swift_code', 'SWIFT/BIC'],
  ['routing_number', 'Routing number'],
  ['sort_code', 'Sort code'],
  ['transit_number', 'Transit number'],
  ['ifsc_code', 'IFSC'],
  ['bsb_number', 'BSB'],
  ['cnaps_code', 'CNAPS'],
  ['clearing_code', 'Clearing code'],
  ['ncc_number', 'NCC'],
  ['branch_code', 'Branch code'],
] as const;

// Each identifies the account itself, so it is masked like an account number.
const ACCOUNTS = [
  ['iban', 'IBAN', 4],
  ['account_number', 'Account', 2],
  ['clabe_number', 'CLABE', 3],
  ['pix_code', 'PIX', 2],
] as const;

const HIDDEN_AT_LEAST = 4;

/**
 * "GB33••••5555": `head` and `tail` characters shown, at least four always hidden, and always
 * written as four dots, the one mask format (the hidden length is not shown).
 */
export function maskMiddle(value: string, head: number, tail = 4): string {
  const v = value.replace(/\s+/g, '');
  const t = Math.max(0, Math.min(tail, v.length - HIDDEN_AT_LEAST));
  const h = Math.max(0, Math.min(head, v.length - HIDDEN_AT_LEAST - t));
  return `${v.slice(0, h)}••••${v.slice(v.length - t)}`;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The checkable summary of a cross-border `details` object (spec 2.10 variant 2). */
export function crossBorderDestination(details: Readonly<Record<string, unknown>>): Destination {
  const address = details.bank_address;
  const country =
    typeof address === 'object' && address !== null ? text((address as Record<string, unknown>).country) : undefined;
  const codes = BANK_CODES.flatMap(([key, label]) => {
    const value = text(details[key]);
    return value ? [{ label, value }] : [];
  });
  const found = ACCOUNTS.find(([key]) => text(details[key]));
  const account = found ? { label: found[1], masked: maskMiddle(text(details[found[0]]) ?? '', found[2]) } : undefined;
  return { country: country?.toUpperCase(), codes, account };
}
