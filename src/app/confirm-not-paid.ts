/**
 * The second approver's confirmation of a not-paid proposal: the one way an outcome-unknown
 * execution becomes failed by a person. The finish script checks again, in the same step as the
 * move and the velocity give-back, that the proposal is the one this person saw and that they
 * are neither its proposer nor the requester (store/lua/includes/confirm-check.lua); two confirmations at once
 * move it once. An approval made with passkeys (its stored `stepUp`, or today's STEP_UP_* when
 * stricter) needs the confirmer's passkey: a click is refused with `needs-passkey` (the card
 * offers the passkey page) and only the page, after verifying the assertion, passes `passkey`.
 */
import { amountFromNumber } from '../domain/amount.js';
import { type AssetId, assetInfo } from '../domain/assets.js';
import { confirmRefusal } from '../domain/not-paid.js';
import type { RequestOutcome, RequestRecord } from '../domain/request.js';
import { needsStepUp, type PasskeyProof } from '../domain/step-up.js';
import { findUnknown, type ResolveDeps, type ResolveOutcome, type Via } from './resolve.js';
import { resolveText } from './resolve-text.js';
import type { ConfirmedNotPaid, NotPaidConfirmation } from './step-up-confirm.js';
import { unknownFinishKeys } from './unknown-keys.js';

/** The confirmer's passkey assertion, verified by the passkey page (app/step-up-confirm.ts). */
export interface ConfirmPasskey {
  verified: true;
  proof: PasskeyProof;
}

/** Whether confirming not-paid on this approval needs the confirmer's passkey. */
export function confirmNeedsPasskey(deps: Pick<ResolveDeps, 'config'>, record: RequestRecord): boolean {
  const { sealed } = record;
  if (sealed.stepUp) return true;
  const call = sealed.call;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return needsStepUp(deps.config.stepUp, { kind: call.kind });
  const asset = assetInfo(call.body.asset as AssetId);
  return needsStepUp(deps.config.stepUp, {
    kind: call.kind,
    assetCode: asset.code,
    amount: amountFromNumber(call.body.amount, asset.decimals),
    newDestination: sealed.display.newReceiver === true,
  });
}

export async function confirmNotPaid(
  deps: ResolveDeps,
  user: string,
  execId: string,
  seenProposal: string,
  via: Via = 'slack',
  passkey?: ConfirmPasskey,
): Promise<ResolveOutcome> {
  if (via === 'cli') return { kind: 'refused', executionId: execId, why: 'cli' };
  const found = await findUnknown(deps, user, execId);
  if (!found.ok) return found.outcome;
  const { record, execution, approvalId } = found;
  const proposal = execution.proposal;
  const early = confirmRefusal(proposal, seenProposal, user, record.sealed.requester);
  if (early) return { kind: 'refused', executionId: execId, why: early, ...(proposal ? { proposal } : {}) };
  if (!proposal) return { kind: 'refused', executionId: execId, why: 'no-proposal' };
  if (confirmNeedsPasskey(deps, record) && !passkey?.verified)
    return { kind: 'refused', executionId: execId, why: 'needs-passkey', proposal };
  const at = deps.now();
  const outcome: RequestOutcome = {
    message: proposal.why,
    // The proof stays with the outcome, so `rampart verify` can check the confirmation later.
    resolution: { by: user, at, paid: false, proposal, ...(passkey ? { passkey: passkey.proof } : {}) },
  };
  // The same keys as the move to unknown: a single's ledger entry, a batch row's own units.
  const keys = await unknownFinishKeys(deps, execId);
  const cli = proposal.via === 'cli' ? ' from the CLI' : '';
  const moved = await deps.store.executions.finish(
    execId,
    '',
    'failed',
    outcome,
    `resolved by two people: not paid: ${proposal.why} (proposed by ${proposal.by}${cli} as ${proposal.id}, confirmed by ${user}${passkey ? ' with a passkey' : ''})`,
    {
      from: ['unknown'],
      by: user,
      confirm: { proposal: proposal.id, by: user, ...(passkey ? { passkey: true } : {}) },
      ...keys,
    },
  );
  if (!moved.ok) {
    if (moved.refused) return { kind: 'refused', executionId: execId, why: moved.refused, proposal };
    return { kind: 'not-unknown', executionId: execId, state: moved.from };
  }
  deps.log.info({ executionId: execId, by: user, proposal: proposal.id }, 'not paid confirmed');
  await deps.queues.notify({ requestId: approvalId, kind: record.executionCount === 1 ? 'outcome' : 'card' });
  return { kind: 'confirmed', executionId: execId, proposal, record: await deps.store.get(approvalId) };
}

/**
 * The passkey page's confirmation: the page verified the confirmer's assertion (purpose
 * confirm-not-paid, over this execution and its approval's approvalHash) before calling this;
 * the use case then checks everything else as for a click.
 */
export async function confirmFromPage(deps: ResolveDeps, c: NotPaidConfirmation): Promise<ConfirmedNotPaid> {
  const outcome = await confirmNotPaid(deps, c.user, c.executionId, c.proposal ?? '', 'slack', {
    verified: true,
    proof: c.proof,
  });
  const kind = outcome.kind === 'refused' ? outcome.why : outcome.kind;
  return { ok: outcome.kind === 'confirmed', kind, text: resolveText(outcome, (u) => u) };
}
