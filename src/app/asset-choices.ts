/**
 * The request form's choices (23 item 17; moved from slack/ by ): the assets
 * a wallet holds, each with its available amount, and each configured wallet marked when it
 * cannot do this job. Reads of the service only; the Slack edge draws them.
 */
import { formatNumber } from '../domain/amount.js';
import { assetInfo, isAssetId } from '../domain/assets.js';
import type { WalletAlias } from '../domain/wallets.js';
import type { ServiceClient } from '../service/client.js';

export interface AssetChoicesDeps {
  service: Pick<ServiceClient, 'getBalances' | 'getWallet'>;
  config: { wallets: readonly WalletAlias[] };
}

export interface HeldAsset {
  id: string;
  /** "120,000.50 available". */
  note: string;
  /** "120,000.50": the figure alone, for "or send the entire available balance (120,000.50 USDC)". */
  available: string;
}

export interface WalletOption {
  alias: string;
  id: string;
  /** 'inactive' or '<kind>s off'; undefined when usable or when the wallet could not be read. */
  note: string | undefined;
}

export async function heldAssets(
  deps: { service: Pick<ServiceClient, 'getBalances'> },
  walletId: string,
): Promise<HeldAsset[]> {
  const balances = await deps.service.getBalances(walletId);
  return balances
    .filter((b) => isAssetId(b.id) && b.available > 0)
    .map((b) => {
      const a = assetInfo(b.id as Parameters<typeof assetInfo>[0]);
      const available = formatNumber(b.available, a.decimals);
      return { id: a.id, note: `${available} available`, available };
    });
}

/** A wallet that could not be read is listed unmarked: submitting checks it anyway. */
export async function walletChoices(deps: AssetChoicesDeps, kind: 'transfer' | 'offramp'): Promise<WalletOption[]> {
  return Promise.all(
    deps.config.wallets.map(async (w): Promise<WalletOption> => {
      const info = await deps.service.getWallet(w.id).catch(() => undefined);
      const note = !info ? undefined : !info.is_active ? 'inactive' : info[kind] ? undefined : `${kind}s off`;
      return { alias: w.alias, id: w.id, note };
    }),
  );
}
