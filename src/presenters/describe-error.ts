/**
 * One function turns any failure into the sentence a person sees: what went wrong and what to
 * do. Never a stack trace, raw JSON or a secret.
 */

import type { FailureFacts } from '../domain/failure.js';
import type { RequestOutcome } from '../domain/request.js';
import { InputError, isRampartError } from '../errors.js';
import { failureFacts } from '../service/classify.js';
import { isServiceError } from '../service/errors.js';
import { describeRedisFailure, redisFailure } from '../store/redis-errors.js';

/** Issue 18 §3: the sentence for Redis's two failures, for edges that may not import store/. */
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
 * classifier (issue 9 item 1): refused or never sent → nothing moved; ambiguous → it may have
 * reached the service. Never an invitation to try again: the caller adds what to check.
 */
export function describeWriteFailure(err: unknown): string {
  return describeFailure(failureFacts(err));
}

/** The same sentence from the facts the worker stored on the request (issue 12, item 5). */
export function describeFailure(f: FailureFacts): string {
  const said = f.serviceMessage ? `: “${clean(f.serviceMessage)}”` : '';
  switch (f.class) {
    case 'refused':
      if (f.detail) return `${sentence(f.detail)} Nothing was sent.`;
      if (f.status === 401 || f.status === 403)
        return `The wallet service refused Rampart's credentials${said}; nothing moved. Ask an admin to check them.`;
      return `The wallet service refused it${said}; nothing moved.`;
    case 'never-sent':
      return 'The wallet service could not be reached, so nothing was sent and nothing moved.';
    case 'ambiguous':
      return `${whatHappened(f, said)} It may have reached the service.`;
  }
}

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

function whatHappened(f: FailureFacts, said: string): string {
  switch (f.code) {
    case 'SERVICE_TIMEOUT':
      return 'The wallet service did not answer in time.';
    case 'SERVICE_UNAVAILABLE':
      return f.status
        ? `The wallet service failed with HTTP ${f.status}${said}.`
        : 'The connection to the wallet service broke after the request was sent.';
    case 'SERVICE_REJECTED':
      return `The wallet service answered HTTP ${f.status ?? 'error'} without its own refusal message${said}.`;
    case 'SERVICE_BAD_RESPONSE':
      return 'The wallet service’s answer could not be read (malformed or too large).';
    default:
      return 'Rampart failed unexpectedly during the call.';
  }
}

/** What a stored outcome says: Rampart's own words, or the sentence for the stored failure. */
export const outcomeMessage = (o: RequestOutcome | undefined): string | undefined =>
  o?.failure ? describeFailure(o.failure) : o?.message;

/**
 * Service text shown to people: one line, bounded, no markup injection. `_` stays: wallet and
 * account ids carry it, and Slack does not italicise inside a word.
 */
export function clean(text: string): string {
  const line = text
    .replace(/\s+/g, ' ')
    .replace(/[<>&*`~]/g, '')
    .trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
