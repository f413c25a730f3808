/**
 * A batch's row amounts and asset as people read them: amounts like the total (thousands
 * separators, at least 2 decimals, every decimal the sealed value has — 1,234.994, never
 * rounded), and the asset by its code and chain name ("cNGN on BNB Smart Chain"). Pure.
 */
import { formatAmount, parseAmount } from './amount.js';
import { assetInfo, CHAINS, parseAssetId } from './assets.js';

/** A row's sealed amount text ("50000", "1234.994") as "50,000.00", "1,234.994". */
export function rowAmount(amount: string, asset: string): string {
  const id = parseAssetId(asset);
  try {
    return formatAmount(parseAmount(amount, id ? assetInfo(id).decimals : 18));
  } catch {
    return amount; // not a valid amount: shown as sealed rather than guessed
  }
}

/** "cNGN on BNB Smart Chain" for `bsc:cngn`; the id itself when it is not one Rampart knows. */
export function assetWords(asset: string, code: string): string {
  const id = parseAssetId(asset);
  if (!id) return asset || code;
  const info = assetInfo(id);
  return `${code || info.code} on ${CHAINS[info.chain].name}`;
}

/** The decimals of a batch's asset (`bsc:cngn` → 6); 6 for an asset Rampart does not know. */
export function assetDecimals(asset: string | undefined): number {
  const id = asset ? parseAssetId(asset) : undefined;
  return id ? assetInfo(id).decimals : 6;
}

/**
 * What a batch moved: the sum of its succeeded rows' sealed amounts, exactly (bigint minor
 * units, never a float), in the batch asset's decimals.
 */
export function succeededTotal(
  rows: readonly { state: string; amount: string }[],
  decimals: number,
): { units: bigint; decimals: number } {
  const units = rows
    .filter((r) => r.state === 'succeeded')
    .reduce((sum, r) => sum + parseAmount(r.amount, decimals).units, 0n);
  return { units, decimals };
}
