/**
 * Amounts, assets and chains as people read them, one form everywhere: amounts like a total
 * (`50,000.00`) from the sealed decimal, at least two decimals and every further one the amount
 * has (`1,234.994`), never rounded; asset codes as the spec lists them (`cNGN`, not `CNGN`);
 * chains by name (`BNB Smart Chain`, not `bsc`).
 */
import { type Amount, formatAmount } from '../domain/amount.js';
import { CHAINS, type ChainId, TOKENS, type TokenId } from '../domain/assets.js';

export { formatAmount };

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A sealed decimal string ("50000", "1234.994", "-650000") formatted like a total; text that is
 * not a plain decimal (already formatted, or a word) is returned unchanged rather than guessed at.
 */
export function formatAmountText(text: string, minFraction = 2): string {
  const match = DECIMAL.exec(text.trim());
  if (!match) return text;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const kept = fraction.replace(/0+$/, '');
  return `${sign}${grouped}.${kept.padEnd(minFraction, '0')}`.replace(/\.$/, '');
}

/** "25.00 USDC" from an Amount and its asset code. */
export const money = (amount: Amount, code: string): string => `${formatAmount(amount)} ${code}`;

/** "BNB Smart Chain" for `bsc`; an id Rampart does not know is shown as given. */
export function chainName(chain: string): string {
  return chain in CHAINS ? CHAINS[chain as ChainId].name : chain;
}

/** "cNGN" for `bsc:cngn` or `cngn`; an unknown token is shown as given. */
export function assetCode(assetOrToken: string): string {
  const token = (assetOrToken.includes(':') ? assetOrToken.split(':')[1] : assetOrToken)?.toLowerCase() ?? '';
  return token in TOKENS ? TOKENS[token as TokenId].code : assetOrToken;
}

/** "cNGN on BNB Smart Chain" for `bsc:cngn`. */
export function assetName(assetId: string): string {
  const [chain = '', token] = assetId.split(':');
  return token ? `${assetCode(token)} on ${chainName(chain)}` : assetId;
}

/** "USDC (Base)": the short form for a line that already has the money first. */
export function assetWithChain(assetId: string): string {
  const [chain = '', token] = assetId.split(':');
  return token ? `${assetCode(token)} (${chainName(chain)})` : assetId;
}
