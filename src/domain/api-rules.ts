/**
 * What an API key may do, decided once: its standing (token, revocation, expiry, owner), its
 * scopes, its rate, the freeze, the known-payees rule for keys without --allow-new-destinations,
 * its limits on a batch's total, and which requests it may read and cancel. Each returns an
 * outcome with a stable code; the HTTP API phrases it (status, JSON pointer), nothing else
 * decides it. Pure: no I/O.
 */
import type { Actor } from './actor.js';
import { amountToString } from './amount.js';
import { type ApiKey, type ApiScope, hasScope, type KeyRefusal, keyLimitRefusal, keyState } from './api-key.js';
import { rowList } from './batch-approval.js';
import type { FreezeState } from './freeze-state.js';
import type { RequestRecord } from './request.js';
import { freezeRule } from './rules/decisions.js';
import { newDestinationRule } from './rules/submissions.js';

/**
 * An API key acting: the actor every door shares (its owner is the user, the history names the
 * key), carrying the key's own record for the rules below (its scopes and limits).
 */
export type KeyActor = Extract<Actor, { via: 'api' }> & { apiKey: ApiKey };

export const keyActor = (key: ApiKey): KeyActor => ({
  via: 'api',
  user: key.owner,
  key: { keyId: key.id, keyName: key.name, owner: key.owner },
  apiKey: key,
});

export type Allowed = { ok: true };
const ALLOWED: Allowed = { ok: true };

/**
 * Whether a presented token is a usable key. Every refusal has the one code `unauthorized`, so
 * a caller learns nothing about which keys exist; `reason` is for the log only.
 */
export type KeyStanding =
  | { ok: true; key: ApiKey }
  | { ok: false; code: 'unauthorized'; reason: 'unknown_token' | 'revoked' | 'expired' | 'owner_inactive' };

/** `found`: the stored key whose hash matched the token (compared in constant time by the caller). */
export function keyStanding(found: ApiKey | undefined, now: number): KeyStanding {
  if (!found) return { ok: false, code: 'unauthorized', reason: 'unknown_token' };
  const state = keyState(found, now);
  if (state !== 'active') return { ok: false, code: 'unauthorized', reason: state };
  return { ok: true, key: found };
}

/** A key whose owner was deactivated in Slack acts for nobody. */
export const ownerStanding = (key: ApiKey, ownerActive: boolean): KeyStanding =>
  ownerActive ? { ok: true, key } : { ok: false, code: 'unauthorized', reason: 'owner_inactive' };

export type ScopeOutcome = Allowed | { ok: false; code: 'missing_scope'; scope: ApiScope; message: string };

export function scopeOutcome(key: ApiKey, scope: ApiScope): ScopeOutcome {
  if (hasScope(key, scope)) return ALLOWED;
  return {
    ok: false,
    code: 'missing_scope',
    scope,
    message: `API key ${key.name} lacks the ${scope} scope; ask for a key that has it.`,
  };
}

export type RateOutcome = Allowed | { ok: false; code: 'rate_limited'; retryAfterMs: number; message: string };

/** `waitMs`: what the key's limiter (API_RATE) answered; 0 when it may call now. */
export function rateOutcome(key: ApiKey, waitMs: number): RateOutcome {
  if (waitMs <= 0) return ALLOWED;
  return {
    ok: false,
    code: 'rate_limited',
    retryAfterMs: waitMs,
    message: `API key ${key.name} is over its rate; retry after the Retry-After seconds.`,
  };
}

export type FreezeOutcome = Allowed | { ok: false; code: 'frozen'; message: string };

/** While Rampart is frozen no new payment is taken, whoever asks (docs/safety.md, the kill switch). */
export function freezeOutcome(freeze: FreezeState | undefined): FreezeOutcome {
  if (freezeRule(freeze !== undefined).ok) return ALLOWED;
  return {
    ok: false,
    code: 'frozen',
    message: 'Rampart is frozen by an operator; no new payments are taken until it is unfrozen.',
  };
}

export type NewDestinationOutcome =
  | Allowed
  | {
      ok: false;
      code: 'new_destination_not_allowed';
      /** The batch rows paying a new address (empty for a single request). */
      rows: number[];
      message: string;
      /** What each refused destination's own field says. */
      detail: string;
    };

/**
 * A key created without --allow-new-destinations pays only addresses Rampart has paid before on
 * that chain. `payees`: each destination with whether it was paid before, and its batch row.
 */
export function newDestinationOutcome(
  key: ApiKey,
  payees: readonly { known: boolean; row?: number }[],
): NewDestinationOutcome {
  const fresh = payees.filter((p) => !newDestinationRule(key.limits, p.known).ok);
  if (fresh.length === 0) return ALLOWED;
  const rows = fresh.flatMap((p) => (p.row === undefined ? [] : [p.row]));
  const tail = 'request those in Slack, or use a key created with --allow-new-destinations.';
  const message =
    rows.length === 0
      ? `API key ${key.name} may pay only addresses Rampart has paid before; request this one in Slack, or use a key created with --allow-new-destinations.`
      : `API key ${key.name} may pay only addresses Rampart has paid before, and ${rowList(rows)} ${rows.length === 1 ? 'pays' : 'pay'} a new one; ${tail}`;
  return {
    ok: false,
    code: 'new_destination_not_allowed',
    rows,
    message,
    detail: 'Rampart has never paid this address.',
  };
}

/**
 * The key's limits on a batch: it is ONE request, so --max-amount bounds its total (a key's
 * ceiling cannot be multiplied by rows) and the refusal names the total.
 */
export function batchKeyLimitRefusal(
  key: ApiKey,
  batch: { wallet: string; asset: string; total: { units: bigint; decimals: number } },
): KeyRefusal | undefined {
  const total = amountToString(batch.total);
  const limit = keyLimitRefusal(key, { wallet: batch.wallet, asset: batch.asset, amount: total });
  if (limit?.field !== 'amount') return limit;
  return {
    ...limit,
    message: `This batch's total, ${total}, is over what API key ${key.name} may request at once (${key.limits.maxAmount ?? ''}); split the batch or ask an approver to request it in Slack.`,
  };
}

/** `requests:read` reads what keys of the same owner made; `requests:read:all` reads any request. */
export const readableBy = (key: ApiKey, r: RequestRecord): boolean =>
  key.scopes.includes('requests:read:all') || r.sealed.display.viaApi?.owner === key.owner;

/** Whose requests a list shows: the owner's, or (requests:read:all) everyone's. */
export const listOwner = (key: ApiKey): string | undefined =>
  key.scopes.includes('requests:read:all') ? undefined : key.owner;

export type KeyCancelOutcome =
  | Allowed
  /** Not readable with this key: as if it did not exist. */
  | { ok: false; code: 'not_found' }
  | { ok: false; code: 'not_cancellable'; message: string };

/** Only the API key that made a request may cancel it (then the cancel rule itself applies). */
export function keyCancelOutcome(key: ApiKey, r: RequestRecord | undefined): KeyCancelOutcome {
  if (!r) return { ok: false, code: 'not_found' };
  if (r.sealed.display.viaApi?.keyId === key.id) return ALLOWED;
  return readableBy(key, r) && hasScope(key, 'requests:read')
    ? { ok: false, code: 'not_cancellable', message: 'Only the API key that made a request may cancel it.' }
    : { ok: false, code: 'not_found' };
}
