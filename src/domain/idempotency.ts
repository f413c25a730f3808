/**
 * The Idempotency-Key rule (the IETF httpapi draft's semantics): a record lasts RETENTION_MS by
 * the injected clock; an answered record replays its answer for the same body's fingerprint and
 * refuses a different body. The records themselves are the store's (store/idempotency.ts). Pure.
 */

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface IdempotencyRecord {
  fingerprint: string;
  /** When this record's generation began (the injected clock); it lasts RETENTION_MS. */
  since: number;
  answer?: StoredAnswer;
}

export const RETENTION_MS = 7 * 86_400_000;

/** The record while it lasts; an older one is as if none were kept (a new generation starts). */
export const liveRecord = (r: IdempotencyRecord | undefined, now: number): IdempotencyRecord | undefined =>
  r && now - r.since < RETENTION_MS ? r : undefined;

export type ReplayOutcome =
  /** Nothing answered yet under this key: the attempt goes on. */
  { kind: 'none' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused'; code: 'idempotency_key_reused' };

/** What an already answered record says to an attempt with this body's fingerprint. */
export function replayOutcome(r: IdempotencyRecord | undefined, fingerprint: string): ReplayOutcome {
  if (!r?.answer) return { kind: 'none' };
  return r.fingerprint === fingerprint
    ? { kind: 'replay', answer: r.answer }
    : { kind: 'reused', code: 'idempotency_key_reused' };
}
