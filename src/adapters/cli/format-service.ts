/**
 * What the service read commands print: pure functions from service data to text (tables) or
 * to the values --json prints. Personal data is masked in both (DESIGN invariant 6).
 */

import { describeWriteFailure } from '../../app/describe-error.js';
import type { AccountLookup, BalanceEntry, Identity, Wallet } from '../../app/reads/service-reads.js';
import { formatNumber } from '../../domain/amount.js';
import { assetInfo, isAssetId } from '../../domain/assets.js';
import { maskBvn, maskTail } from '../../domain/personal-data.js';
import { keyValues, table } from './table.js';

const yesNo = (b: boolean): string => (b ? 'yes' : 'no');

export const walletName = (alias: string | undefined, id: string): string => (alias ? `${alias} (${id})` : id);

/** Asset decimals decide how a figure is shown; unknown assets get 6 (all of spec 2.2 have 6). */
export const decimalsOf = (assetId: string): number => (isAssetId(assetId) ? assetInfo(assetId).decimals : 6);

export function walletText(alias: string | undefined, w: Wallet): string {
  return keyValues([
    ['Wallet', walletName(alias, w.id)],
    ['Reference', w.reference],
    ['Active', yesNo(w.is_active)],
    ['EVM address', w.address.evm],
    ['SVM address', w.address.svm],
    ['Transfer', yesNo(w.transfer)],
    ['Swap', yesNo(w.swap)],
    ['Offramp', yesNo(w.offramp)],
  ]);
}

export function balancesText(alias: string | undefined, walletId: string, balances: readonly BalanceEntry[]): string {
  const title = `Wallet ${walletName(alias, walletId)}`;
  if (balances.length === 0) return `${title}\nNo balances on this wallet.`;
  const rows = balances.map((b) => {
    const d = decimalsOf(b.id);
    return [
      b.code,
      b.blockchain.name,
      b.id,
      formatNumber(b.balance, d),
      formatNumber(b.available, d),
      formatNumber(b.debt, d),
    ];
  });
  const right = { align: 'right' } as const;
  const columns = [
    { title: 'Asset' },
    { title: 'Chain' },
    { title: 'ID' },
    { title: 'Balance', ...right },
    { title: 'Available', ...right },
    { title: 'Debt', ...right },
  ];
  return `${title}\n${table(columns, rows)}`;
}

// Rates carry no asset; 6 places is finer than any quote the service gives.
export const rateText = (currency: string, rate: number): string =>
  keyValues([['Onramp rate', `${formatNumber(rate, 6)} ${currency}`]]);

export const maskedLookup = (r: AccountLookup): AccountLookup => ({ ...r, account_number: maskTail(r.account_number) });

export function lookupText(r: AccountLookup): string {
  const m = maskedLookup(r);
  return keyValues([
    ['Account name', m.account_name],
    ['Bank', `${m.bank_name} (${m.bank_code})`],
    ['Account number', m.account_number],
  ]);
}

/** Only the BVN's last four digits leave; other details (a date of birth, say) are withheld. */
export function maskedIdentity(i: Identity): Identity {
  const details: Identity['details'] = {};
  for (const [key, value] of Object.entries(i.details)) {
    details[key] = key === 'bvn' && typeof value === 'string' ? maskBvn(value) : '(withheld)';
  }
  return { ...i, details };
}

export function identityText(i: Identity): string {
  const m = maskedIdentity(i);
  const bvn = m.details.bvn;
  const others = Object.keys(m.details).filter((k) => k !== 'bvn');
  return keyValues([
    ['Identity', m.id],
    ['Type', m.type],
    ['Active', yesNo(m.is_active)],
    ['BVN', typeof bvn === 'string' ? bvn : undefined],
    ...(others.length > 0 ? [['Other details', `${others.join(', ')} (withheld)`] as const] : []),
  ]);
}

/** `rampart user create` ended ambiguous: the user may exist, so no advice to run it again. */
export const unknownUserCreation = (err: unknown): string =>
  `outcome unknown: ${describeWriteFailure(err)} The user may have been created: do not run this again until the service's records (ask its operators) show no user with this email.`;
