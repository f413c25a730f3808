/**
 * Any error a use case throws, as the one sentence a person sees: what went wrong and what to do,
 * never a stack trace, raw JSON or a secret. It lives in app/ because telling the errors apart
 * takes the service's and the store's error shapes, which adapters never import; the phrasing
 * of stored facts is presenters/describe-error.ts.
 */
import { InputError, isRampartError } from '../errors.js';
import { clean, describeFailure } from '../presenters/describe-error.js';
import { failureFacts } from '../service/classify.js';
import { isServiceError } from '../service/errors.js';
import { describeRedisFailure, redisFailure } from '../store/redis-errors.js';

/** The sentence for Redis's two failures, for adapters, which never import store/. */
export { describeRedisFailure };

/** The sentence for a Redis failure, or undefined for any other error. */
export function redisFailureText(err: unknown): string | undefined {
  const failure = redisFailure(err);
  return failure ? describeRedisFailure(failure) : undefined;
}

export function describeError(err: unknown): string {
  if (err instanceof InputError) return err.message;
  const redis = redisFailure(err);
  if (redis) return describeRedisFailure(redis);
  if (isServiceError(err)) {
    const said = err.serviceMessage ? `: “${clean(err.serviceMessage)}”` : '';
    switch (err.code) {
      case 'SERVICE_REJECTED':
        if (err.status === 401 || err.status === 403) {
          return `The wallet service refused Rampart's credentials${said}. Ask an admin to check SERVICE_API_KEY.`;
        }
        if (err.status === 404) return `The wallet service does not know that${said}. Check the id and try again.`;
        return `The wallet service refused the request${said}. Correct it and try again.`;
      case 'SERVICE_TIMEOUT':
        return 'The wallet service did not answer in time. Try again in a minute; if it keeps happening, tell on-call.';
      case 'SERVICE_UNAVAILABLE':
        return err.status
          ? `The wallet service failed (HTTP ${err.status})${said}. Try again in a minute; if it keeps happening, tell on-call.`
          : 'The wallet service cannot be reached right now. Try again in a minute; if it keeps happening, tell on-call.';
      case 'SERVICE_BAD_RESPONSE':
        return 'The wallet service’s answer could not be read (malformed or too large). Tell on-call; the details are in Rampart’s log.';
      default:
        break;
    }
  }
  if (isRampartError(err)) return err.message;
  return 'Something went wrong inside Rampart. Try again; if it keeps happening, tell on-call (the details are in the log).';
}

/**
 * The sentence for a failed call that moves or creates something, phrased from the one
 * classifier: refused or never sent → nothing moved; ambiguous → it may have
 * reached the service. Never an invitation to try again: the caller adds what to check.
 */
export function describeWriteFailure(err: unknown): string {
  return describeFailure(failureFacts(err));
}
