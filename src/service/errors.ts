/**
 * The one error every service call fails with. `mayHaveReached` answers the only question a
 * money-moving caller needs: could the service have acted on this request?
 */
import { maskLongNumbers } from '../domain/personal-data.js';
import { type ErrorCode, RampartError } from '../errors.js';

export type Operation =
  | 'createUser'
  | 'transfer'
  | 'createBeneficiary'
  | 'offramp'
  | 'createIdentity'
  | 'getIdentity'
  | 'lookupAccount'
  | 'getWallet'
  | 'getBalances'
  | 'getOnrampRate';

export interface ServiceErrorDetails {
  operation: Operation;
  /** HTTP status, when an answer came back. */
  status?: number | undefined;
  /** The service's own message, when its body carried one. */
  serviceMessage?: string | undefined;
  mayHaveReached: boolean;
  cause?: unknown;
}

export class ServiceError extends RampartError {
  readonly operation: Operation;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly mayHaveReached: boolean;

  constructor(code: ErrorCode, message: string, details: ServiceErrorDetails) {
    super(code, message, { cause: details.cause });
    this.operation = details.operation;
    this.status = details.status;
    // The service's words travel to logs and Slack; an echoed BVN or account number must not.
    this.serviceMessage = details.serviceMessage === undefined ? undefined : maskLongNumbers(details.serviceMessage);
    this.mayHaveReached = details.mayHaveReached;
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;

/** Socket-level failures that prove nothing was sent: the connection was never made. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

function errorCodeOf(e: unknown): string | undefined {
  if (e instanceof AggregateError) return errorCodeOf(e.errors[0]);
  if (typeof e === 'object' && e !== null) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return errorCodeOf((e as { cause?: unknown }).cause);
  }
  return undefined;
}

/** Maps a transport failure (undici/Node error) to a ServiceError. */
export function transportError(operation: Operation, cause: unknown): ServiceError {
  const code = errorCodeOf(cause);
  const neverSent = code !== undefined && NEVER_SENT.has(code);
  if (code !== undefined && TIMEOUTS.has(code)) {
    return new ServiceError(
      'SERVICE_TIMEOUT',
      neverSent
        ? `${operation}: could not connect to the service in time`
        : `${operation}: the service did not answer in time`,
      { operation, mayHaveReached: !neverSent, cause },
    );
  }
  return new ServiceError(
    'SERVICE_UNAVAILABLE',
    neverSent
      ? `${operation}: the service could not be reached (${code})`
      : `${operation}: the connection to the service failed (${code ?? 'unknown error'})`,
    { operation, mayHaveReached: !neverSent, cause },
  );
}
