/**
 * Repeats of earlier payments: a payment with the same asset,
 * destination and amount as a payment pending, approved, executing, succeeded or UNKNOWN within
 * BATCH_REPEAT_WINDOW. Pure: the key a payment is indexed under, which earlier states count, and
 * the order an approver reads them in (an unknown one first: it may have been paid).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { callDestination, keyAddress } from './destination-key.js';
import type { ServiceCall } from './request.js';

export { PAID_BENEFICIARIES } from './destination-key.js';

/** Default BATCH_REPEAT_WINDOW: a week. */
export const DEFAULT_REPEAT_WINDOW_MS = 7 * 86_400_000;
/** The same file is looked for over 30 days (PayPal's payouts refuse a batch id seen in 30 days). */
export const SAME_FILE_WINDOW_MS = 30 * 86_400_000;

/** What an earlier payment was when this one was checked; only these states make a repeat. */
export type RepeatState = 'pending' | 'approved' | 'executing' | 'succeeded' | 'unknown';

/** An earlier payment this one repeats: its execution id, its state then, and when it was requested. */
export interface RepeatHit {
  of: string;
  state: RepeatState;
  at: number;
}

/** A batch row that repeats an earlier payment (not another row of its own file). */
export interface RowRepeat extends RepeatHit {
  row: number;
}

/**
 * The index key's digest: asset, destination key (domain/destination-key.ts) and the exact wire
 * amount. A digest keeps Redis key names short and free of beneficiary ids. Only money moves count.
 * The asset names the chain, so the key's address part is hashed: the digests stored before keys
 * had families stay the same.
 */
export function paymentDigest(call: ServiceCall): string | undefined {
  const to = callDestination(call);
  if (!to || (call.kind !== 'transfer' && call.kind !== 'offramp')) return undefined;
  return digest(call.body.asset, keyAddress(to.key), call.body.amount);
}

const digest = (asset: string, destination: string, amount: number): string =>
  bytesToHex(sha256(utf8ToBytes(`${asset} ${destination} ${String(amount)}`))).slice(0, 32);

/**
 * An earlier execution's state as a repeat, from its own state and its approval's: a queued
 * execution is pending or approved with its approval; failed and cancelled ones (denied,
 * expired and cancelled approvals included) moved nothing and are not repeats.
 */
export function repeatStateOf(execution: string | undefined, approval: string | undefined): RepeatState | undefined {
  switch (execution) {
    case 'executing':
    case 'succeeded':
    case 'unknown':
      return execution;
    case 'queued':
      if (approval === 'pending') return 'pending';
      if (approval === 'approved' || approval === 'running' || approval === 'paused' || approval === 'stopping')
        return 'approved';
      return undefined;
    default:
      return undefined;
  }
}

/** Unknown first (check it before paying again), then the most recent first. */
export function byUrgency<T extends RepeatHit>(hits: readonly T[]): T[] {
  return [...hits].sort((a, b) => Number(b.state === 'unknown') - Number(a.state === 'unknown') || b.at - a.at);
}

/** "2 days", "5 hours", "a few minutes": how long before `now` a payment was requested. */
export function howLongBefore(at: number, now: number): string {
  const ms = Math.max(0, now - at);
  const days = Math.floor(ms / 86_400_000);
  if (days >= 1) return days === 1 ? '1 day' : `${days} days`;
  const hours = Math.floor(ms / 3_600_000);
  if (hours >= 1) return hours === 1 ? '1 hour' : `${hours} hours`;
  const minutes = Math.floor(ms / 60_000);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}

/**
 * Rows of a batch in preview order (flagged rows first): rows repeating an unknown
 * payment, then any other flagged row, each group in file order, then the rest.
 */
export function flaggedFirst<T extends { row: number }>(
  rows: readonly T[],
  urgent: ReadonlySet<number>,
  flagged: ReadonlySet<number>,
): T[] {
  const rank = (r: T) => (urgent.has(r.row) ? 0 : flagged.has(r.row) ? 1 : 2);
  return [...rows].sort((a, b) => rank(a) - rank(b) || a.row - b.row);
}
