/**
 * A batch's wallet and asset as named (a configured alias in any case, or the wallet's id; an
 * asset id such as base:usdc), or a sentence for each that is wrong. The /batch form, the CLI and
 * the HTTP API read them the same way. Pure.
 */
import { type Asset, assetInfo, describeUnknownAsset, parseAssetId } from './assets.js';
import type { WalletAlias } from './wallets.js';

export function batchTarget(
  wallets: readonly WalletAlias[],
  input: { wallet: string; asset: string },
): { wallet: WalletAlias; asset: Asset } | { errors: { wallet?: string; asset?: string } } {
  const named = input.wallet.trim();
  const wallet = wallets.find((w) => w.alias === named.toLowerCase() || w.id === named);
  const assetId = parseAssetId(input.asset);
  if (wallet && assetId) return { wallet, asset: assetInfo(assetId) };
  return {
    errors: {
      ...(wallet
        ? {}
        : {
            wallet: `"${input.wallet}" is not a configured wallet; choose one of ${wallets.map((w) => w.alias).join(', ')}.`,
          }),
      ...(assetId ? {} : { asset: describeUnknownAsset(input.asset) }),
    },
  };
}
