/**
 * Bearer authentication of an API call (issue 21): the token's hash compared in constant time,
 * then the key's own state (revoked, expired) and its owner's (deactivated in Slack). Every
 * refusal is the same 401 sentence, so a caller learns nothing about which keys exist.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type ApiKey, keyState, parseToken } from '../domain/api-key.js';
import type { Logger } from '../log.js';
import { type ApiKeyStore, tokenHash } from '../store/api-keys.js';
import type { OwnerDirectory } from './owners.js';
import { type ProblemAnswer, problem, retryAfter } from './problem.js';

const UNAUTHORIZED = problem(
  401,
  'unauthorized',
  'Send a valid, unrevoked API key as Authorization: Bearer rmp_…; ask its owner or an operator (rampart api-keys list).',
  { headers: { 'WWW-Authenticate': 'Bearer realm="rampart"' } },
);
// Compared against when the key id is unknown, so both paths take the same time.
const DUMMY_HASH = tokenHash('rmp_000000000000_none');

export interface AuthDeps {
  keys: ApiKeyStore;
  owners: OwnerDirectory;
  log: Logger;
  now: () => number;
}

export async function authenticate(deps: AuthDeps, req: IncomingMessage): Promise<ApiKey | ProblemAnswer> {
  const header = req.headers.authorization ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const parsed = parseToken(token);
  const stored = parsed ? await deps.keys.get(parsed.id) : undefined;
  const presented = Buffer.from(tokenHash(token), 'hex');
  const expected = Buffer.from(stored?.tokenHash ?? DUMMY_HASH, 'hex');
  const matches = presented.length === expected.length && timingSafeEqual(presented, expected);
  if (!stored || !matches) return UNAUTHORIZED;
  const key = stored.key;
  const state = keyState(key, deps.now());
  if (state !== 'active') {
    deps.log.info({ apiKey: key.name, state }, 'API call with a key that is not active');
    return UNAUTHORIZED;
  }
  let active: boolean;
  try {
    active = await deps.owners.isActive(key.owner);
  } catch (err) {
    deps.log.warn({ err, apiKey: key.name }, 'could not check the API key owner in Slack');
    return problem(503, 'owner_check_failed', 'Rampart could not check the API key with Slack; try again shortly.', {
      headers: retryAfter(5000),
    });
  }
  if (!active) {
    deps.log.info({ apiKey: key.name }, 'API call with a key whose owner is deactivated');
    return UNAUTHORIZED;
  }
  await deps.keys.touch(key.id, deps.now());
  return key;
}
