/**
 * The request form's words: what an empty amount means, with the figure it would send, and one
 * sentence per pre-fill that could not be used. Pure.
 */
import { amountTextProblem } from '../../../domain/amount.js';
import { assetInfo, describeUnknownAsset, isAssetId, parseAssetId } from '../../../domain/assets.js';
import type { Prefill } from '../../../domain/command-text.js';

export interface AssetChoice {
  id: string;
  /** "120,000.50 available" when the wallet's balance is known. */
  note?: string;
  /** "120,000.50": the available figure alone. */
  available?: string;
}

/**
 * The alternative to an amount, with its figure when the form knows which asset (pre-filled, or
 * the only one the wallet holds): "or send the entire available balance (29,500.25 USDT)".
 */
export function entireBalanceText(choices: readonly AssetChoice[], asset: string | undefined, listed: boolean): string {
  const chosen = choices.find((a) => a.id === asset) ?? (listed && choices.length === 1 ? choices[0] : undefined);
  const figure =
    chosen?.available && isAssetId(chosen.id) ? `${chosen.available} ${assetInfo(chosen.id).code}` : undefined;
  return `or send the entire available balance (${figure ?? 'its figure is fixed when you submit'})`;
}

/** One sentence per pre-fill that could not be used, shown at the top. */
export function prefillWarnings(prefill: Prefill, wallets: readonly { alias: string }[]): string[] {
  const out: string[] = [];
  if (prefill.wallet && !wallets.some((w) => w.alias === prefill.wallet))
    out.push(`“${prefill.wallet}” is not a wallet: choose one (${wallets.map((w) => w.alias).join(', ')}).`);
  const amountProblem = prefill.amount ? amountTextProblem(prefill.amount) : undefined;
  if (amountProblem) out.push(`${amountProblem} The amount box is left empty.`);
  if (prefill.asset && !parseAssetId(prefill.asset)) out.push(describeUnknownAsset(prefill.asset));
  return out;
}
