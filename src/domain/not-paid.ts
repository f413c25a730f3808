/**
 * "Not paid" is the verdict that can make money move twice (the requester asks again while the
 * first payment did go through), so it takes two different people, neither the requester: one
 * proposes (with a reason), a second approver confirms the proposal they saw. Pure rules; the
 * store checks the same in the script that moves the execution (store/lua/includes/confirm-check.lua).
 */

/** A pending not-paid proposal, stored on its execution. */
export interface NotPaidProposal {
  /** Names this proposal: a confirmation says which one its person saw. */
  id: string;
  by: string;
  at: number;
  why: string;
  /** Made with `rampart resolve` (the history says "from the CLI"). */
  via?: 'cli';
}

/** Why this person may not confirm this proposal, or undefined when they may. */
export type ConfirmRefusal = 'no-proposal' | 'stale' | 'proposer' | 'requester';

export function confirmRefusal(
  proposal: NotPaidProposal | undefined,
  seen: string,
  confirmer: string,
  requester: string,
): ConfirmRefusal | undefined {
  if (confirmer === requester) return 'requester';
  if (!proposal) return 'no-proposal';
  if (proposal.id !== seen) return 'stale';
  if (proposal.by === confirmer) return 'proposer';
  return undefined;
}

/**
 * Approvers who could confirm someone's proposal: two different people besides the requester are
 * needed, so with fewer than two eligible approvers a not-paid can never be confirmed.
 */
export const canEverConfirm = (approvers: readonly string[], requester?: string): boolean =>
  new Set(approvers.filter((a) => a !== requester)).size >= 2;

/** P- and 8 hex characters: short enough to read aloud, unique per execution in practice. */
export const proposalId = (randomHex: string): string => `P-${randomHex.slice(0, 8)}`;
