/**
 * The service call a validated draft becomes: exactly the body POST /transfer or /offramp will
 * receive, frozen and hashed when the request is posted (DESIGN invariant 2).
 */
import { amountToWire } from './amount.js';
import type { Draft } from './draft.js';
import type { ServiceCall } from './request.js';

export function frozenCall(draft: Draft): ServiceCall {
  // spec 4.2: -1 transfers the entire available balance.
  const amount = draft.amount ? amountToWire(draft.amount) : -1;
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
