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

export type UnfreezeChoice = 'release' | 'cancel';
