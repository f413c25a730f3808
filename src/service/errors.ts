/**
 * The one error every service call fails with. It carries the facts the classifier
 * (classify.ts) decides on: whether any byte of the request was written (`mayHaveReached`,
 * observed from the request's phase) and whether the answer was the service's own refusal.
 */
import { maskServiceText } from '../domain/personal-data.js';
import { type ErrorCode, RampartError } from '../errors.js';
import type { Operation } from './operations.js';

export type { Operation };

export interface ServiceErrorDetails {
  operation: Operation;
  /** HTTP status, when an answer came back. */
  status?: number | undefined;
  /** The service's own message, when its body carried one (masked again here). */
  serviceMessage?: string | undefined;
  mayHaveReached: boolean;
  /** The service's own well-formed refusal (or Rampart's, before sending): nothing moved. */
  refused?: boolean;
  cause?: unknown;
}

export class ServiceError extends RampartError {
  readonly operation: Operation;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly mayHaveReached: boolean;
  readonly refused: boolean;

  constructor(code: ErrorCode, message: string, details: ServiceErrorDetails) {
    // The service's words travel to logs and Slack; an echoed BVN, date or number must not.
    // Callers mask configured secrets first (they know them); personal data is masked here too.
    super(code, maskServiceText(message), { cause: details.cause });
    this.operation = details.operation;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage === undefined ? undefined : maskServiceText(details.serviceMessage);
    this.mayHaveReached = details.mayHaveReached;
    this.refused = details.refused ?? false;
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;

function errorCodeOf(e: unknown): string | undefined {
  if (e instanceof AggregateError) return errorCodeOf(e.errors[0]);
  if (typeof e === 'object' && e !== null) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return errorCodeOf((e as { cause?: unknown }).cause);
  }
  return undefined;
}

const IDLE_TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** How a transport failure ended, as transport.ts observed it. */
export type TransportFailure = 'deadline' | 'too-large' | 'other';

/**
 * Maps a transport failure to a ServiceError. `sent` says whether the request had begun to be
 * written: an error code alone never proves nothing left — EHOSTUNREACH on a
 * socket that already carried the POST is as ambiguous as a reset.
 */
export function transportError(
  operation: Operation,
  cause: unknown,
  sent: boolean,
  how: TransportFailure = 'other',
  maxBytes = 0,
): ServiceError {
  const code = errorCodeOf(cause);
  const details = { operation, mayHaveReached: sent, cause };
  if (!sent) {
    const timedOut = how === 'deadline' || (code !== undefined && IDLE_TIMEOUTS.has(code));
    return new ServiceError(
      timedOut ? 'SERVICE_TIMEOUT' : 'SERVICE_UNAVAILABLE',
      timedOut
        ? `${operation}: could not connect to the service in time; nothing was sent`
        : `${operation}: the service could not be reached (${code ?? 'no connection'}); nothing was sent`,
      details,
    );
  }
  if (how === 'too-large') {
    return new ServiceError(
      'SERVICE_BAD_RESPONSE',
      `${operation}: the service's answer is larger than ${Math.round(maxBytes / 1024)} KiB and was not read`,
      details,
    );
  }
  if (how === 'deadline' || (code !== undefined && IDLE_TIMEOUTS.has(code))) {
    return new ServiceError('SERVICE_TIMEOUT', `${operation}: the service did not answer in time`, details);
  }
  return new ServiceError(
    'SERVICE_UNAVAILABLE',
    `${operation}: the connection to the service failed after the request was sent (${code ?? 'unknown error'})`,
    details,
  );
}
