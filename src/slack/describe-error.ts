/**
 * One function turns any failure into the sentence a person sees: what went wrong and what to
 * do. Never a stack trace, raw JSON or a secret.
 */
import { InputError, isRampartError } from '../errors.js';
import { isServiceError } from '../service/errors.js';

export function describeError(err: unknown): string {
  if (err instanceof InputError) return err.message;
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
        return 'The wallet service answered in a shape Rampart does not understand. Tell on-call; the details are in Rampart’s log.';
      default:
        break;
    }
  }
  if (isRampartError(err)) return err.message;
  return 'Something went wrong inside Rampart. Try again; if it keeps happening, tell on-call (the details are in the log).';
}

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
