/**
 * The "New BVN identity" form's rules (spec 4.5): a full name, an 11-digit BVN and a real date of
 * birth, turned into the service's CreateIdentityRequest shape. Pure.
 */
import { InputError } from '../errors.js';

export type IdentityField = 'name' | 'bvn' | 'dob';
export type IdentityFormErrors = Partial<Record<IdentityField, string>>;

export interface IdentityForm {
  name: string;
  bvn: string;
  /** As Slack's datepicker gives it: YYYY-MM-DD. */
  dob: string | undefined | null;
}

export interface IdentityBody {
  type: 'BVN';
  name: string;
  details: { bvn: string; dob: string };
}

/** A calendar date that exists (no 31 February). */
export function isRealDate(day: number, month: number, year: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Slack's datepicker gives YYYY-MM-DD; the service wants DD-MM-YYYY (spec 4.5). */
export function toServiceDob(selected: string | undefined | null, today: Date): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(selected ?? '');
  if (!m) throw new InputError('Pick the date of birth.', 'dob');
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  if (!isRealDate(Number(d), Number(mo), Number(y)) || Number(y) < 1900)
    throw new InputError('That is not a real date of birth.', 'dob');
  if (new Date(`${y}-${mo}-${d}T00:00:00Z`) > today)
    throw new InputError('A date of birth cannot be in the future.', 'dob');
  return `${d}-${mo}-${y}`;
}

/** Every field checked at once, so the form shows every problem in one go. */
export function checkIdentityForm(
  form: IdentityForm,
  today: Date,
): { body: IdentityBody } | { errors: IdentityFormErrors } {
  const name = form.name.trim();
  const bvn = form.bvn.replace(/\s/g, '');
  const errors: IdentityFormErrors = {};
  if (name.length < 2) errors.name = 'Type the full name as registered with the bank.';
  if (!/^\d{11}$/.test(bvn)) errors.bvn = 'A BVN is exactly 11 digits.';
  let dob = '';
  try {
    dob = toServiceDob(form.dob, today);
  } catch (err) {
    if (err instanceof InputError) errors.dob = err.message;
    else throw err;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { type: 'BVN', name, details: { bvn, dob } } };
}
