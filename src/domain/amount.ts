/**
 * Money amounts as exact decimals. User input is a decimal string parsed into integer base
 * units (bigint), so "0.1" + "0.2" style float errors cannot happen; the wire number is made
 * only at the end (spec 4.2 sends `amount` as a JSON number).
 */
import { InputError } from '../errors.js';

export interface Amount {
  /** Integer amount in the asset's smallest unit. */
  units: bigint;
  decimals: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
// Thousands grouping with one separator kind: 1,250.50 · 12,345,678 · 1_000;
// never after a leading zero ("0,500" is a European half).
const GROUPED = /^[1-9]\d{0,2}(?:(,|_)\d{3})(?:\1\d{3})*(?:\.\d+)?$/;
// Keeps wire numbers exactly representable as a JSON/IEEE double (15 significant digits).
const MAX_SIGNIFICANT_DIGITS = 15;

/**
 * Why `input` is not written as an amount, or undefined. A comma is read only as exact
 * thousands grouping: "12,50" is refused, never turned into 1,250.
 */
export function amountTextProblem(input: string): string | undefined {
  const text = input.trim();
  if (DECIMAL.test(text) || GROUPED.test(text)) return undefined;
  if (text.includes(',')) {
    return `"${text}" is not an amount: a comma may only group thousands (1,250.50); use a point for decimals, e.g. 12.50.`;
  }
  return `"${text}" is not an amount; write a positive number such as 250 or 12.5.`;
}

export function parseAmount(input: string, decimals: number, field = 'amount'): Amount {
  const problem = amountTextProblem(input);
  if (problem) throw new InputError(problem, field);
  const match = DECIMAL.exec(input.trim().replace(/[,_]/g, ''));
  if (!match) throw new InputError(`"${input.trim()}" is not an amount.`, field);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) {
    throw new InputError(`This asset has ${decimals} decimal places; ${input.trim()} has ${fraction.length}.`, field);
  }
  const units = BigInt(whole + fraction.padEnd(decimals, '0'));
  if (units === 0n) throw new InputError('The amount must be more than zero.', field);
  const significant = units.toString().replace(/0+$/, '').length;
  if (significant > MAX_SIGNIFICANT_DIGITS || units.toString().length - decimals > MAX_SIGNIFICANT_DIGITS) {
    throw new InputError(`${input.trim()} is too large to send safely; split it into smaller amounts.`, field);
  }
  return { units, decimals };
}

/** Canonical decimal string, no exponent, no trailing zeros: "1234.5". */
export function amountToString(amount: Amount): string {
  const negative = amount.units < 0n;
  const digits = (negative ? -amount.units : amount.units).toString().padStart(amount.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - amount.decimals);
  const fraction = digits.slice(digits.length - amount.decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The JSON number sent to the service; exact because parseAmount bounds the digits. */
export const amountToWire = (amount: Amount): number => Number(amountToString(amount));

/** Converts a service figure (a JSON number) into base units, rounding toward zero. */
const PLAIN_DECIMAL = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });

export function amountFromNumber(value: number, decimals: number): Amount {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  // Plain decimal text (no exponent), then truncate: rounding up could overstate a balance.
  const text = PLAIN_DECIMAL.format(value);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'));
  return { units: negative ? -units : units, decimals };
}

/** "1,234,567.5" — thousands separators, minimum `minFraction` decimals shown. */
export function formatAmount(amount: Amount, minFraction = 2): string {
  const text = amountToString(amount);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const shownFraction = fraction.padEnd(Math.min(minFraction, amount.decimals), '0');
  return `${negative ? '-' : ''}${grouped}${shownFraction ? `.${shownFraction}` : ''}`;
}

export const formatNumber = (value: number, decimals: number, minFraction = 2): string =>
  formatAmount(amountFromNumber(value, decimals), minFraction);

export const subtractAmounts = (a: Amount, b: Amount): Amount => ({ units: a.units - b.units, decimals: a.decimals });
