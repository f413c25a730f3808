/** /rate and /lookup answers. */

import type { AccountLookup } from '../../../app/reads/service-reads.js';
import { maskAccount } from '../../../domain/personal-data.js';
import { type Blocks, context, esc, section, slackDate } from './common.js';

const RATE_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const SYMBOL: Record<string, string> = { NGN: '₦' };

/** "per what" said — the service quotes local currency per 1 USDC (spec 2.9's onramp rate). */
export const rateBlocks = (currency: string, rate: number, fetchedAt: number): Blocks => [
  section(
    `*1 USDC ≈ ${SYMBOL[currency] ?? `${esc(currency)} `}${RATE_FORMAT.format(rate)}* (onramp rate, ${esc(currency)})`,
  ),
  context(`Fetched ${slackDate(fetchedAt)} from the wallet service.`),
];

export const lookupBlocks = (r: AccountLookup): Blocks => [
  section(
    `*${esc(r.account_name)}*\n${esc(r.bank_name)} (bank code ${esc(r.bank_code)}) · account ${maskAccount(r.account_number)}`,
  ),
  context(':white_check_mark: Verified with the bank through the wallet service.'),
];
