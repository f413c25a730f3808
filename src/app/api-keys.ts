/**
 * Creating an API key: 256 random bits in the token, only its SHA-256 stored, the
 * token handed back once for the operator to pass on. The CLI is the edge that phrases it.
 */
import { randomBytes } from 'node:crypto';
import { type ApiKey, type ApiKeyLimits, type ApiScope, formatToken, keyLimitsProblem } from '../domain/api-key.js';
import { type ApiKeyStore, tokenHash } from '../store/api-keys.js';

export interface NewApiKey {
  name: string;
  owner: string;
  scopes: ApiScope[];
  limits: ApiKeyLimits;
  /** undefined: never expires. */
  lifetimeMs: number | undefined;
}

export type CreateKeyOutcome =
  | { kind: 'created'; key: ApiKey; token: string }
  | { kind: 'name-taken' }
  /** A limit no request could be held to (`--max-amount 0`): `message` names it and what to give. */
  | { kind: 'invalid-limits'; message: string };

export async function createApiKey(
  deps: { keys: ApiKeyStore; now: () => number },
  input: NewApiKey,
): Promise<CreateKeyOutcome> {
  const problem = keyLimitsProblem(input.limits);
  if (problem) return { kind: 'invalid-limits', message: problem };
  const id = randomBytes(6).toString('hex');
  const token = formatToken(id, randomBytes(32).toString('base64url'));
  const now = deps.now();
  const key: ApiKey = {
    id,
    name: input.name,
    owner: input.owner,
    scopes: input.scopes,
    limits: input.limits,
    createdAt: now,
    expiresAt: input.lifetimeMs === undefined ? undefined : now + input.lifetimeMs,
    revokedAt: undefined,
    lastUsedAt: undefined,
  };
  return (await deps.keys.create({ key, tokenHash: tokenHash(token) }))
    ? { kind: 'created', key, token }
    : { kind: 'name-taken' };
}

/** Revokes the active key of that name: from then on it answers 401; undefined when there is none. */
export async function revokeApiKey(
  deps: { keys: Pick<ApiKeyStore, 'idByName' | 'revoke'>; now: () => number },
  name: string,
): Promise<ApiKey | undefined> {
  const id = await deps.keys.idByName(name);
  return id ? deps.keys.revoke(id, deps.now()) : undefined;
}
