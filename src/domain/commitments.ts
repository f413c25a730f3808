/**
 * What is already promised from a wallet's asset: approved payments not yet sent — a batch's
 * queued rows, a single waiting for its turn. A new payment on the same balance competes with
 * them, so its card shows them and what is left once all of them and it are paid. Pure.
 */

export type CommitmentStatus = 'running' | 'paused' | 'waiting';

export interface Commitment {
  /** The approval's id: `B-1003`, `R-1009`. */
  id: string;
  /** What it still needs, in the asset's minor units. */
  units: bigint;
  status: CommitmentStatus;
}

export interface CardCommitments {
  items: Commitment[];
  decimals: number;
  /** The asset's code as listed: `cNGN`, never `CNGN`. */
  code: string;
  /** What stays available once this payment and every commitment are paid; absent when the balance could not be read. */
  availableAfter?: bigint;
}

/** The balance now, less this payment, less what every commitment still needs (may be negative). */
export const availableAfterCommitments = (available: bigint, thisUnits: bigint, items: readonly Commitment[]): bigint =>
  items.reduce((left, c) => left - c.units, available - thisUnits);
