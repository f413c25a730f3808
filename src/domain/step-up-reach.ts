/**
 * Whether a step-up request can still reach its quorum: only a passkey vote counts, the requester
 * never approves their own, so it needs as many other approvers holding a passkey that counts
 * (active, out of its cool-down) as votes remain. Pure.
 */

export interface StepUpReach {
  /** Approvers other than the requester, not yet voted, whose passkey counts now. */
  holders: string[];
  /** Votes still needed. */
  needed: number;
  /** Listed approvers (users, not groups) who could register a passkey to help reach it. */
  couldRegister: string[];
}

const isUser = (id: string): boolean => /^[UW][A-Z0-9]+$/.test(id);

/** undefined when the quorum can be reached with the passkeys that count now. */
export function unreachableQuorum(
  required: number,
  votes: readonly string[],
  requester: string,
  passkeyHolders: readonly string[],
  approvers: readonly string[],
): StepUpReach | undefined {
  const needed = required - votes.length;
  const voted = new Set(votes);
  const holders = passkeyHolders.filter((u) => u !== requester && !voted.has(u));
  if (needed <= 0 || holders.length >= needed) return undefined;
  const holding = new Set(passkeyHolders);
  const couldRegister = approvers.filter((a) => isUser(a) && a !== requester && !voted.has(a) && !holding.has(a));
  return { holders, needed, couldRegister };
}
