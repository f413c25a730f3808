/**
 * Bearer authentication of an API call: the token goes to the app (apiKeys.authenticate), whose
 * every refusal is the same 401 sentence, so a caller learns nothing about which keys exist.
 */
import type { IncomingMessage } from 'node:http';
import type { KeyActor } from '../../domain/api-rules.js';
import type { ApiDeps } from './deps.js';
import { type ProblemAnswer, problem, retryAfter } from './problem.js';

const UNAUTHORIZED = problem(
  401,
  'unauthorized',
  'Send a valid, unrevoked API key as Authorization: Bearer rmp_…; ask its owner or an operator (rampart api-keys list).',
  { headers: { 'WWW-Authenticate': 'Bearer realm="rampart"' } },
);
const OWNER_CHECK_FAILED = problem(
  503,
  'owner_check_failed',
  'Rampart could not check the API key with Slack; try again shortly.',
  { headers: retryAfter(5000) },
);

export async function authenticate(
  deps: Pick<ApiDeps, 'app'>,
  req: IncomingMessage,
): Promise<KeyActor | ProblemAnswer> {
  const header = req.headers.authorization ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const auth = await deps.app.apiKeys.authenticate(token);
  switch (auth.kind) {
    case 'key':
      return auth.actor;
    case 'unauthorized':
      return UNAUTHORIZED;
    case 'owner_check_failed':
      return OWNER_CHECK_FAILED;
  }
}
