/**
 * The rules a decision on a pending approval is held to, in the order the VOTE script applies
 * them (store/lua/vote.lua): the approval's state, the freeze, no self-approval, not the same person
 * twice, a passkey where the request needs one. The script stays the enforcer (it checks and
 * records in one atomic step); these functions state the same rules, and a store test compares
 * the script's answers with them over a grid of facts. Pure.
 */
import type { Actor } from '../actor.js';
import { ALLOW, type RuleOutcome } from './outcome.js';

/** A decision that comes too late: the approval is no longer pending, or its time ran out. */
export function approvalStateRule(
  f: { state: string | undefined; expiresAt: number },
  now: number,
): RuleOutcome<'missing' | 'not_pending' | 'expired'> {
  if (f.state === undefined) return { ok: false, code: 'missing' };
  if (f.state !== 'pending') return { ok: false, code: 'not_pending' };
  if (now >= f.expiresAt) return { ok: false, code: 'expired' };
  return ALLOW;
}

/** While Rampart is frozen no approval lands and nothing starts (docs/safety.md "Freeze"). */
export const freezeRule = (frozen: boolean): RuleOutcome<'frozen'> => (frozen ? { ok: false, code: 'frozen' } : ALLOW);

/** Four eyes: whoever asked for the money never approves it, whichever door either came through. */
export const noSelfApproval = (actor: Pick<Actor, 'user'>, requester: string): RuleOutcome<'self_approval'> =>
  actor.user === requester ? { ok: false, code: 'self_approval' } : ALLOW;

/** A quorum of two is two people: one person's second vote never counts. */
export const notTheSamePersonTwice = (
  actor: Pick<Actor, 'user'>,
  voters: readonly string[],
): RuleOutcome<'duplicate_vote'> => (voters.includes(actor.user) ? { ok: false, code: 'duplicate_vote' } : ALLOW);

/** A request that needs step-up counts a vote only with a verified passkey (a Slack click has none). */
export const stepUpProofRule = (stepUp: boolean, withPasskey: boolean): RuleOutcome<'step_up_required'> =>
  stepUp && !withPasskey ? { ok: false, code: 'step_up_required' } : ALLOW;

/**
 * An approval that carries a lookalike (an address with the first 6 and last 4 characters of a
 * known destination: domain/address-book.ts) counts a vote only when the approver confirmed the
 * card's warnings (the Approve button's confirm dialog names the lookalike).
 */
export const lookalikeConfirmRule = (
  flagged: boolean,
  warningsChecked: boolean,
): RuleOutcome<'lookalike_unconfirmed'> =>
  flagged && !warningsChecked ? { ok: false, code: 'lookalike_unconfirmed' } : ALLOW;

/** What the VOTE script knows when a vote arrives. */
export interface VoteFacts {
  state: string | undefined;
  expiresAt: number;
  frozen: boolean;
  requester: string;
  voters: readonly string[];
  stepUp: boolean;
  withPasskey: boolean;
  /** The approval carries a lookalike, and whether this vote confirmed the card's warnings. */
  lookalike?: boolean;
  warningsChecked?: boolean;
}

export type VoteRuleCode =
  | 'missing'
  | 'not_pending'
  | 'expired'
  | 'frozen'
  | 'self_approval'
  | 'duplicate_vote'
  | 'step_up_required'
  | 'lookalike_unconfirmed';

/** The first rule a vote breaks, in the script's order; velocity at quorum comes after these. */
export function voteRule(actor: Pick<Actor, 'user'>, f: VoteFacts, now: number): RuleOutcome<VoteRuleCode> {
  const checks = [
    () => approvalStateRule(f, now),
    () => freezeRule(f.frozen),
    () => noSelfApproval(actor, f.requester),
    () => notTheSamePersonTwice(actor, f.voters),
    () => lookalikeConfirmRule(f.lookalike === true, f.warningsChecked === true),
    () => stepUpProofRule(f.stepUp, f.withPasskey),
  ];
  for (const check of checks) {
    const outcome = check();
    if (!outcome.ok) return outcome;
  }
  return ALLOW;
}
