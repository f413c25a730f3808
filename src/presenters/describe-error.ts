/**
 * Stored failure facts and service text as the sentence a person sees (pure). A thrown error is
 * phrased by app/describe-error.ts, which tells the kinds apart.
 */

import type { FailureFacts } from '../domain/failure.js';
import type { RequestOutcome } from '../domain/request.js';

/** The same sentence from the facts the worker stored on the request. */
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
