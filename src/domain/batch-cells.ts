/**
 * Rules for one cell of a batch file: formula cells, the amount and the destination.
 * Pure. Each problem is the end of a sentence that starts "Row 7 amount:".
 */
import { receiverProblem } from './address.js';
import { type Amount, parseAmount } from './amount.js';
import type { Asset } from './assets.js';
import { freeTextProblem } from './free-text.js';

export const BATCH_KINDS = ['transfers', 'offramps'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

/** The column that names where a row's money goes. */
export const DESTINATION_COLUMN = { transfers: 'receiver', offramps: 'beneficiary' } as const;

/** Columns by kind: required first, then the optional `reference`. */
export const BATCH_COLUMNS: Readonly<Record<BatchKind, readonly string[]>> = {
  transfers: ['receiver', 'amount', 'reference'],
  offramps: ['beneficiary', 'amount', 'reference'],
};
export const REQUIRED_COLUMNS: Readonly<Record<BatchKind, readonly string[]>> = {
  transfers: ['receiver', 'amount'],
  offramps: ['beneficiary', 'amount'],
};

export const MAX_REFERENCE_CHARS = 140;

/**
 * A spreadsheet runs a cell starting with = + - @ (also after blanks, or a tab or carriage
 * return) as a formula: such input is refused, never "cleaned" (OWASP CSV injection).
 */
const FORMULA = /^[\s]*[=+\-@]/;
export const isFormulaCell = (value: string): boolean => FORMULA.test(value) || /^[\t\r]/.test(value);

export function amountCellProblem(text: string, asset: Asset): { amount: Amount } | { problem: string } {
  const value = text.trim();
  if (value === '') return { problem: 'the amount is empty; write the exact amount, e.g. 250.00.' };
  // spec 4.2's -1 ("entire balance") is never sent by Rampart, in a file least of all.
  if (value === '-1')
    return { problem: '-1 (the entire balance) is not allowed in a batch; write the exact amount to pay.' };
  if (isFormulaCell(text))
    return { problem: `"${value}" starts like a formula or a negative number; write a positive amount such as 250.` };
  try {
    return { amount: parseAmount(value, asset.decimals) };
  } catch (err) {
    return { problem: err instanceof Error ? err.message : 'it is not an amount.' };
  }
}

/** Problems with a destination that need no I/O; a beneficiary is resolved later against the registry. */
export function destinationCellProblem(kind: BatchKind, text: string, asset: Asset): string | undefined {
  const value = text.trim();
  if (kind === 'transfers') {
    if (value === '') return 'the receiver address is empty.';
    return receiverProblem(asset, value); // the transfer form's sentences
  }
  if (value === '') return "the beneficiary is empty; give an approved beneficiary's id or label.";
  if (value.length > 80) return 'the beneficiary is longer than any id or label; give its id from /beneficiary list.';
  return undefined;
}

export function referenceCellProblem(text: string): string | undefined {
  if (text.trim().length > MAX_REFERENCE_CHARS)
    return `the reference is longer than ${MAX_REFERENCE_CHARS} characters; shorten it.`;
  return freeTextProblem(text.trim(), 'the reference');
}
