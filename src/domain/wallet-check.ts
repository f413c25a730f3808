/**
 * Whether a draft fits the wallet as the service reports it at submission: active, capability on,
 * the asset held, the amount within what is available (spec 4.8, 4.9). Pure: the caller fetches.
 */
import { amountFromNumber, formatAmount, subtractAmounts } from './amount.js';
import { CHAINS } from './assets.js';
import type { Draft, FieldErrors, SealedDraft } from './draft.js';
import type { RequestDisplay } from './request.js';

/** The parts of the service's wallet and balance answers the check reads. */
export interface WalletFacts {
  is_active: boolean;
  transfer: boolean;
  offramp: boolean;
  address: { evm: string; svm: string };
}
export interface BalanceFacts {
  id: string;
  available: number;
}

export function checkDraftAgainstWallet(
  draft: Draft,
  wallet: WalletFacts,
  balances: readonly BalanceFacts[],
): { errors: FieldErrors } | { draft: SealedDraft; display: RequestDisplay; availableUnits: string } {
  if (!wallet.is_active)
    return { errors: { wallet: `Wallet ${draft.walletAlias} is inactive; nothing can be sent from it.` } };
  if (!wallet[draft.kind])
    return {
      errors: {
        wallet: `${draft.kind === 'transfer' ? 'Transfers' : 'Offramps'} are turned off for wallet ${draft.walletAlias}.`,
      },
    };
  const entry = balances.find((b) => b.id === draft.asset.id);
  if (!entry)
    return { errors: { asset: `Wallet ${draft.walletAlias} holds no ${draft.asset.id}; choose an asset it holds.` } };
  const available = amountFromNumber(entry.available, draft.asset.decimals);
  if (available.units <= 0n)
    return { errors: { amount: `Nothing is available of ${draft.asset.code} on ${draft.walletAlias} right now.` } };
  if (draft.amount && draft.amount.units > available.units) {
    return {
      errors: { amount: `Only ${formatAmount(available)} ${draft.asset.code} is available on ${draft.walletAlias}.` },
    };
  }
  // "entire available balance" is sealed here as the exact amount available now, the
  // number the card shows; -1 is never sent, so a deposit after submission is never swept.
  const amount = draft.amount ?? available;
  const after = subtractAmounts(available, amount);
  const chainKind = CHAINS[draft.asset.chain].kind;
  return {
    draft: { ...draft, amount },
    display: {
      walletAlias: draft.walletAlias,
      walletAddress: chainKind === 'evm' ? wallet.address.evm : wallet.address.svm,
      amountText: formatAmount(amount),
      ...(draft.amount ? {} : { entireBalance: true }),
      assetCode: draft.asset.code,
      chain: draft.asset.chain,
      availableBefore: formatAmount(available),
      availableAfter: formatAmount(after),
    },
    // The available balance the request was submitted against.
    availableUnits: available.units.toString(),
  };
}
