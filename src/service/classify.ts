/**
 * The one decision every caller of the service makes after a failed call (DESIGN invariant 3,
 * ): could the service have acted on it? The worker, the identity view and
 * `rampart user create` all ask here; the edges only phrase the answer.
 */
import { z } from 'zod';
import type { FailureClass, FailureFacts } from '../domain/failure.js';
import { InputError, isRampartError } from '../errors.js';
import { isServiceError } from './errors.js';
import { isIdempotent, type Operation } from './operations.js';

export type { FailureClass, FailureFacts };

/** The class (see domain/failure.ts) of a failed call. */
export function classifyFailure(err: unknown): FailureClass {
  if (err instanceof InputError) return 'refused';
  // Anything unexpected is treated as the worst case: it may have reached the service.
  if (!isServiceError(err)) return 'ambiguous';
  if (err.refused) return 'refused';
  return err.mayHaveReached ? 'ambiguous' : 'never-sent';
}

/**
 * What a failed call leaves behind: `unknown` when a non-idempotent call is ambiguous, otherwise
 * a plain failure (`failed`, nothing moved; a read's error is shown as such).
 */
export const outcomeOfFailure = (operation: Operation, err: unknown): 'failed' | 'unknown' =>
  !isIdempotent(operation) && classifyFailure(err) === 'ambiguous' ? 'unknown' : 'failed';

/**
 * The service's own refusal (spec 2.1 envelope with success=false; spec 7 shows no more): a
 * 4xx-status envelope carrying its message. A gateway's HTML, other JSON, or an envelope that
 * reports a 5xx is not proof that nothing happened.
 */
const refusalEnvelope = z.object({
  success: z.literal(false),
  status: z.number().int().min(400).max(499),
  message: z.string(),
});

export function isServiceRefusal(httpStatus: number, body: unknown): boolean {
  const answeredAsRefusal = (httpStatus >= 400 && httpStatus <= 499) || httpStatus === 200 || httpStatus === 201;
  return answeredAsRefusal && refusalEnvelope.safeParse(body).success;
}

/** A failure as data to store and phrase later; never the raw error (it may hold the request). */
export function failureFacts(err: unknown): FailureFacts {
  const facts: FailureFacts = { class: classifyFailure(err), code: isRampartError(err) ? err.code : 'INTERNAL' };
  if (isServiceError(err)) {
    if (err.status !== undefined) facts.status = err.status;
    if (err.serviceMessage !== undefined) facts.serviceMessage = err.serviceMessage;
    if (err.status === undefined && facts.class === 'refused') facts.detail = err.message;
  } else if (err instanceof InputError) {
    facts.detail = err.message;
  }
  return facts;
}
