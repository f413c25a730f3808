/**
 * submitRequest: a transfer or offramp as typed in a form becomes a frozen, pending request —
 * or the field errors that say why not. Live checks against the service (wallet active, capability
 * on, amount within available), the policy, then freeze and store (README "How a payment stays
 * safe"). Nothing reaches the service's money endpoints here. The edge acks, then calls
 * `announce` (app/post-request.ts) so the card and the expiry follow.
 */
import { type DraftInput, type FieldErrors, validateDraft } from '../domain/draft.js';
import { evaluatePolicy } from '../domain/policy.js';
import type { FrozenRequest, RequestDisplay } from '../domain/request.js';
import { frozenCall } from '../domain/service-call.js';
import { checkDraftAgainstWallet } from '../domain/wallet-check.js';
import type { AppDeps } from './deps.js';
import { freezeRequest } from './post-request.js';
import { checkVelocity } from './velocity.js';

export interface Submission {
  input: DraftInput;
  requester: string;
  /** Channel the request was made from, for the requester's confirmation. */
  origin: string | undefined;
  /** The form's id: one submitted form makes at most one request. */
  submission: string;
}

export type SubmitOutcome =
  | { kind: 'invalid'; errors: FieldErrors }
  /** The wallet could not be checked: the service failed or was too slow (the edge phrases it). */
  | { kind: 'unchecked'; error: unknown }
  | { kind: 'duplicate' }
  | { kind: 'submitted'; frozen: FrozenRequest };

export type SubmitDeps = Pick<AppDeps, 'config' | 'service' | 'store' | 'registry' | 'controls' | 'now'> & {
  /** Bounds the live checks, which run before Slack's 3 s ack (the edge decides the budget). */
  withinBudget<T>(work: Promise<T>): Promise<T>;
};

type Checked = { errors: FieldErrors } | { display: RequestDisplay; availableUnits: string } | { unchecked: unknown };

async function checkLive(deps: SubmitDeps, draft: Parameters<typeof frozenCall>[0]): Promise<Checked> {
  let facts: [
    Awaited<ReturnType<AppDeps['service']['getWallet']>>,
    Awaited<ReturnType<AppDeps['service']['getBalances']>>,
  ];
  try {
    facts = await deps.withinBudget(
      Promise.all([deps.service.getWallet(draft.walletId), deps.service.getBalances(draft.walletId)]),
    );
  } catch (err) {
    return { unchecked: err };
  }
  const checked = checkDraftAgainstWallet(draft, ...facts);
  if ('errors' in checked) return checked;
  const display = checked.display;
  if (draft.kind === 'transfer' && draft.receiver)
    display.newReceiver = !(await deps.store.knownPayee(draft.asset.chain, draft.receiver));
  if (draft.kind === 'offramp' && draft.beneficiaryId) {
    // Only beneficiaries approved through Rampart are payout choices (issue 5).
    const entry = await deps.registry.beneficiary(draft.beneficiaryId);
    if (!entry)
      return {
        errors: {
          beneficiary: 'Choose a beneficiary from the list; only beneficiaries approved in Rampart can be paid.',
        },
      };
    display.beneficiaryLabel = entry.label;
    display.holderName = entry.holderName;
    if (entry.asStated) {
      // issue 11: registered as existing; every card says its details are only as stated.
      display.beneficiaryStatedBy = entry.createdBy;
      display.beneficiaryBank = `${entry.bankName} ${entry.accountMasked}`;
    }
  }
  return { display, availableUnits: checked.availableUnits };
}

export async function submitRequest(deps: SubmitDeps, s: Submission): Promise<SubmitOutcome> {
  const validated = validateDraft(s.input, deps.config.wallets);
  if ('errors' in validated) return { kind: 'invalid', errors: validated.errors };
  const { draft } = validated;
  const checked = await checkLive(deps, draft);
  if ('unchecked' in checked) return { kind: 'unchecked', error: checked.unchecked };
  if ('errors' in checked) return { kind: 'invalid', errors: checked.errors };
  const policy = evaluatePolicy(deps.config.policy, {
    kind: draft.kind,
    assetCode: draft.asset.code,
    ...(draft.amount ? { amount: draft.amount } : {}),
  });
  if (!policy.ok) return { kind: 'invalid', errors: { amount: `This request cannot be approved: ${policy.reason}.` } };
  // issue 13: a request that would break a velocity limit is refused on the amount field.
  const call = frozenCall(draft);
  const velocity = await checkVelocity(
    { controls: deps.controls, rules: deps.config.controls.velocity, now: deps.now },
    { call, display: checked.display, availableUnits: checked.availableUnits },
  );
  if (!velocity.ok) return { kind: 'invalid', errors: { amount: velocity.message } };
  const frozen = await freezeRequest(deps, {
    availableUnits: checked.availableUnits,
    ...(velocity.note ? { velocityNote: velocity.note } : {}),
    call,
    display: checked.display,
    requester: s.requester,
    reason: draft.reason,
    origin: s.origin,
    required: policy.required,
    rule: policy.rule,
    submission: s.submission,
  });
  return frozen ? { kind: 'submitted', frozen } : { kind: 'duplicate' };
}
