/**
 * Validation of a transfer or offramp as typed in the modal: pure checks that need no I/O
 * (asset pair, receiver for the chain, amount and its decimals, reason). Errors are keyed by
 * the modal field they belong on.
 */

import { InputError } from '../errors.js';
import { receiverProblem } from './address.js';
import { type Amount, parseAmount } from './amount.js';
import { type Asset, assetInfo, describeUnknownAsset, parseAssetId } from './assets.js';

// 'when': a payment set for a time (domain/timing.ts scheduleRule).
export type DraftField = 'wallet' | 'asset' | 'amount' | 'receiver' | 'beneficiary' | 'reason' | 'when';
export type FieldErrors = Partial<Record<DraftField, string>>;

export interface DraftInput {
  kind: 'transfer' | 'offramp';
  wallet: string | undefined;
  asset: string | undefined;
  amount: string | undefined;
  entireBalance: boolean;
  receiver: string | undefined;
  beneficiary: string | undefined;
  reason: string | undefined;
}

export interface Draft {
  kind: 'transfer' | 'offramp';
  walletAlias: string;
  walletId: string;
  asset: Asset;
  /** undefined: the entire available balance (transfer only, spec 4.2). */
  amount: Amount | undefined;
  receiver: string | undefined;
  beneficiaryId: string | undefined;
  reason: string;
}

/** A draft whose amount is fixed: an "entire balance" draft sealed at the available amount. */
export type SealedDraft = Draft & { amount: Amount };

export function validateDraft(
  input: DraftInput,
  wallets: readonly { alias: string; id: string }[],
): { draft: Draft } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const wallet = wallets.find((w) => w.alias === input.wallet);
  if (!wallet) errors.wallet = 'Choose one of the configured wallets.';
  const assetId = input.asset ? parseAssetId(input.asset) : undefined;
  if (!input.asset) errors.asset = 'Choose the asset to send.';
  else if (!assetId) errors.asset = describeUnknownAsset(input.asset);
  const asset = assetId ? assetInfo(assetId) : undefined;

  let amount: Amount | undefined;
  if (input.entireBalance) {
    if (input.kind === 'offramp')
      errors.amount = 'An offramp needs an exact amount; "entire balance" is only for transfers.';
    else if (input.amount?.trim())
      errors.amount = 'Either type an amount or tick "entire available balance", not both.';
  } else if (!input.amount?.trim()) {
    errors.amount = 'Type the amount, e.g. 250 or 12.5.';
  } else if (asset) {
    try {
      amount = parseAmount(input.amount, asset.decimals);
    } catch (err) {
      if (err instanceof InputError) errors.amount = err.message;
      else throw err;
    }
  }

  const receiver = input.receiver?.trim();
  if (input.kind === 'transfer') {
    if (!receiver) errors.receiver = 'Paste the receiver address.';
    else if (asset) {
      // The same sentences as a batch row's receiver (one rule for every way an address is typed).
      const problem = receiverProblem(asset, receiver);
      if (problem) errors.receiver = problem;
    }
  }
  const beneficiary = input.beneficiary?.trim();
  if (input.kind === 'offramp' && !beneficiary) errors.beneficiary = 'Choose the beneficiary to pay.';

  const reason = input.reason?.trim() ?? '';
  if (reason.length < 3)
    errors.reason = 'Say why this payment is needed; it goes on the approval card and in the history.';
  else if (reason.length > 500) errors.reason = 'Keep the reason under 500 characters.';

  if (Object.keys(errors).length > 0 || !wallet || !asset) return { errors };
  return {
    draft: {
      kind: input.kind,
      walletAlias: wallet.alias,
      walletId: wallet.id,
      asset,
      amount,
      receiver: input.kind === 'transfer' ? receiver : undefined,
      beneficiaryId: input.kind === 'offramp' ? beneficiary : undefined,
      reason,
    },
  };
}
