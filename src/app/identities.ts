/**
 * Identities that already exist at the service: a typed id is checked live with
 * GET /identity (spec 4.6), remembered in Rampart's registry masked, and offered — or refused
 * with the reason. No Bolt, no WebClient: outcomes the Slack and CLI edges phrase.
 */
import { isIdentityIdQuery, looksLikeBvn } from '../domain/identity-query.js';
import type { Logger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import { isServiceError } from '../service/errors.js';
import type { IdentityEntry, Registry } from '../store/registry.js';
import { DeadlineError, withDeadline } from './deadline.js';

export interface IdentityDeps {
  service: Pick<ServiceClient, 'getIdentity'>;
  registry: Registry;
  log: Logger;
  now: () => number;
}

/** What the service said about one id, just now. */
export type IdentityCheck =
  | { kind: 'found'; entry: IdentityEntry; active: boolean }
  | { kind: 'unknown'; id: string }
  /** The id was not sent: it looks like a BVN. */
  | { kind: 'bvn' }
  | { kind: 'slow'; ms: number }
  | { kind: 'unavailable'; error: unknown };

/**
 * GET /identity for one id, bounded by `deadlineMs` when given; a found identity is remembered
 * unless `remember` is false (a file check changes nothing until the whole file is good).
 */
export async function checkIdentity(
  deps: IdentityDeps,
  id: string,
  by: string,
  deadlineMs?: number,
  remember = true,
): Promise<IdentityCheck> {
  const wanted = id.trim();
  if (looksLikeBvn(wanted)) return { kind: 'bvn' };
  try {
    const call = deps.service.getIdentity(wanted);
    const identity = deadlineMs === undefined ? await call : await withDeadline(call, deadlineMs);
    const bvn = identity.details.bvn ?? '';
    const seen = {
      id: identity.id,
      type: identity.type,
      bvnLast4: /^\d{4,}$/.test(bvn) ? bvn.slice(-4) : '',
      isActive: identity.is_active,
    };
    const entry = remember
      ? await deps.registry.rememberIdentity(seen, by, deps.now())
      : await deps.registry.identityAsSeen(seen, by, deps.now());
    return { kind: 'found', entry, active: identity.is_active };
  } catch (err) {
    if (err instanceof DeadlineError) return { kind: 'slow', ms: deadlineMs ?? 0 };
    if (isServiceError(err) && err.status === 404) return { kind: 'unknown', id: wanted };
    deps.log.warn({ err }, 'identity check with the service failed');
    return { kind: 'unavailable', error: err };
  }
}

export interface IdentitySearch {
  /** Rampart's registry, by name, id or the BVN's last digits. */
  known: IdentityEntry[];
  /** The live check, when the query looked like an id (or a BVN) not already in `known`. */
  live?: IdentityCheck;
}

/** The identity picker: the registry, and the service for a typed id. */
export async function searchIdentities(
  deps: IdentityDeps,
  query: string,
  by: string,
  deadlineMs: number,
): Promise<IdentitySearch> {
  const q = query.trim();
  if (looksLikeBvn(q)) return { known: [], live: { kind: 'bvn' } };
  const known = await deps.registry.searchIdentities(q);
  if (!isIdentityIdQuery(q)) return { known };
  const live = await checkIdentity(deps, q, by, deadlineMs);
  return { known: live.kind === 'found' ? known.filter((e) => e.id !== live.entry.id) : known, live };
}

/** Why an identity cannot be chosen, or undefined when it can. */
export type IdentityRefusal = 'missing' | 'unknown' | 'inactive';

export async function chosenIdentity(
  deps: Pick<IdentityDeps, 'registry'>,
  value: string | undefined,
): Promise<{ ok: true; entry: IdentityEntry } | { ok: false; why: IdentityRefusal; entry?: IdentityEntry }> {
  if (!value) return { ok: false, why: 'missing' };
  const entry = await deps.registry.identity(value);
  if (!entry) return { ok: false, why: 'unknown' };
  // The last word of the service wins: an identity it called inactive cannot own a beneficiary.
  if (entry.isActive === false) return { ok: false, why: 'inactive', entry };
  return { ok: true, entry };
}
