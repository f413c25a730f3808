/** The kill switch's facts, as the store keeps them and the cards show them. */

/** Who froze Rampart, when, and why. */
export interface FreezeState {
  by: string;
  at: number;
  reason: string;
}

/** One /unfreeze proposal: who opened it, the votes by choice, and its card. */
export interface UnfreezeProposal {
  id: string;
  by: string;
  at: number;
  votes: Record<string, UnfreezeChoice>;
  decided?: UnfreezeChoice;
  card?: { channel: string; ts: string };
}

/** Unfreeze and run what the freeze held, or unfreeze and cancel it. */
export type UnfreezeChoice = 'unfreeze' | 'cancel';

/**
 * A stored vote or decision as a choice. Proposals written before the card said "unfreeze"
 * stored `release` for the same choice.
 */
export function unfreezeChoiceOf(stored: string | undefined): UnfreezeChoice | undefined {
  if (stored === 'cancel') return 'cancel';
  return stored === 'unfreeze' || stored === 'release' ? 'unfreeze' : undefined;
}
