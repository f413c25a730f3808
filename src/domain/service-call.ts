/**
 * The service call a validated draft becomes: exactly the body POST /transfer or /offramp will
 * receive, sealed and hashed when the request is posted (DESIGN invariant 2).
 */
import { amountToWire } from './amount.js';
import type { SealedDraft } from './draft.js';
import type { ServiceCall } from './request.js';

/**
 * Spec 4.2 allows -1 ("the entire available balance"), but that moves whatever is there when
 * the call runs, possibly more than the approvers saw: Rampart never sends it. The
 * draft's amount is always exact here.
 */
export function sealedCall(draft: SealedDraft): ServiceCall {
  const amount = amountToWire(draft.amount);
  if (draft.kind === 'transfer') {
    return {
      kind: 'transfer',
      body: { wallet_id: draft.walletId, amount, receiver: draft.receiver ?? '', asset: draft.asset.id },
    };
  }
  return {
    kind: 'offramp',
    body: { wallet_id: draft.walletId, amount, beneficiary_id: draft.beneficiaryId ?? '', asset: draft.asset.id },
  };
}
