/**
 * What a wallet's balances can and cannot say about an outcome-unknown payment. The receiver's
 * explorer page decides; balances only help: a drop of at least the amount between a reading
 * taken before the call started and one taken after it is consistent with the payment having
 * left — and only when no other Rampart payment on that wallet and asset started or finished in
 * between. A missing drop is never evidence of "not paid": deposits, fees and late debits hide a
 * payment. Pure.
 */

/** A wallet's available balances by asset id, and when they were read. */
export interface BalanceReading {
  at: number;
  available: Record<string, number>;
}

/** One reading of this asset's available balance, and when it was taken. */
export interface AssetReading {
  at: number;
  available: number;
}

export interface BalanceEvidenceInput {
  amount: number;
  /** The newest reading Rampart held before the call started (none: no comparison). */
  before?: AssetReading | undefined;
  /** Taken once the outcome was recorded as unknown. */
  atUnknown?: AssetReading | undefined;
  /** Taken when the form was opened. */
  now?: AssetReading | undefined;
  /** Other Rampart executions on the wallet and asset that started or finished between the readings. */
  others: readonly string[];
}

export type BalanceVerdict =
  | { kind: 'no-before' }
  | { kind: 'no-after' }
  | { kind: 'others'; others: readonly string[] }
  | { kind: 'drop'; by: number; after: AssetReading }
  | { kind: 'cannot-tell'; change: number };

// Amounts are decimal numbers from the service (spec 2.4); a micro-unit of slack absorbs float noise.
const EPSILON = 1e-7;

export function balanceVerdict(e: BalanceEvidenceInput): BalanceVerdict {
  if (!e.before) return { kind: 'no-before' };
  const after = e.atUnknown ?? e.now;
  if (!after) return { kind: 'no-after' };
  if (e.others.length > 0) return { kind: 'others', others: e.others };
  // Either later reading may show the drop: a debit can land after the unknown was recorded.
  for (const r of [e.atUnknown, e.now]) {
    if (!r) continue;
    const by = e.before.available - r.available;
    if (by + EPSILON >= e.amount) return { kind: 'drop', by, after: r };
  }
  return { kind: 'cannot-tell', change: after.available - e.before.available };
}

/** "4 min", "2 h", "3 d": how old a reading was at a moment. */
export function ageText(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  if (m < 1) return 'under a minute';
  if (m < 120) return `${m} min`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} d`;
}
