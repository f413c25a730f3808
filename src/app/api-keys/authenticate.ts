/**
 * Who is calling the HTTP API: the token's hash compared in constant time, then the key's own
 * state (revoked, expired) and its owner's (deactivated in Slack), then its scope and its rate.
 * Every standing refusal is the one `unauthorized`, so a caller learns nothing about which keys exist.
 */
import { timingSafeEqual } from 'node:crypto';
import { type ApiScope, parseToken } from '../../domain/api-key.js';
import {
  type KeyActor,
  keyActor,
  keyStanding,
  ownerStanding,
  type RateOutcome,
  rateOutcome,
  scopeOutcome,
} from '../../domain/api-rules.js';
import type { Logger } from '../../log.js';
import { type ApiKeyStore, tokenHash } from '../../store/api-keys.js';
import { type ApiPorts, apiPortsOf } from './ports.js';

export interface AuthDeps {
  apiKeys: Pick<ApiKeyStore, 'get' | 'touch'>;
  api?: ApiPorts | undefined;
  log: Logger;
  now: () => number;
}

export type Authentication =
  | { kind: 'key'; actor: KeyActor }
  | { kind: 'unauthorized' }
  /** Slack could not be asked whether the owner is active: nothing decided, try again. */
  | { kind: 'owner_check_failed' };

// Compared against when the key id is unknown, so both paths take the same time.
const DUMMY_HASH = tokenHash('rmp_000000000000_none');

export async function authenticate(deps: AuthDeps, token: string): Promise<Authentication> {
  const parsed = parseToken(token);
  const stored = parsed ? await deps.apiKeys.get(parsed.id) : undefined;
  const presented = Buffer.from(tokenHash(token), 'hex');
  const expected = Buffer.from(stored?.tokenHash ?? DUMMY_HASH, 'hex');
  const matches = presented.length === expected.length && timingSafeEqual(presented, expected);
  const standing = keyStanding(stored && matches ? stored.key : undefined, deps.now());
  if (!standing.ok) {
    if (stored && matches)
      deps.log.info({ apiKey: stored.key.name, state: standing.reason }, 'API call with a key that is not active');
    return { kind: 'unauthorized' };
  }
  const { key } = standing;
  let active: boolean;
  try {
    active = await apiPortsOf(deps).owners.isActive(key.owner);
  } catch (err) {
    deps.log.warn({ err, apiKey: key.name }, 'could not check the API key owner in Slack');
    return { kind: 'owner_check_failed' };
  }
  if (!ownerStanding(key, active).ok) {
    deps.log.info({ apiKey: key.name }, 'API call with a key whose owner is deactivated');
    return { kind: 'unauthorized' };
  }
  await deps.apiKeys.touch(key.id, deps.now());
  return { kind: 'key', actor: keyActor(key) };
}

/** May this key call an operation needing `scope` now: its scopes first, then its rate. */
export async function admit(
  deps: Pick<AuthDeps, 'api'>,
  actor: KeyActor,
  scope: ApiScope,
): Promise<ReturnType<typeof scopeOutcome> | RateOutcome> {
  const key = actor.apiKey;
  const scoped = scopeOutcome(key, scope);
  if (!scoped.ok) return scoped;
  return rateOutcome(key, await apiPortsOf(deps).admit(key.id));
}
