/**
 * The one decision every caller of the service makes after a failed call (DESIGN invariant 3,
 * issue 9 item 1): could the service have acted on it? The worker, the identity view and
 * `rampart user create` all ask here; the edges only phrase the answer.
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import { isServiceError, type Operation } from './errors.js';

/**
 * - `never-sent`: no byte of the request was written (decided by the request's phase, never by
 *   an error code); nothing can have happened, so trying again is safe.
 * - `refused`: the service's own well-formed refusal, or Rampart's own check before sending;
 *   nothing moved.
 * - `ambiguous`: anything else after the first byte left — any 5xx, an answer that is not the
 *   service's envelope, a time-out, a reset, an unreadable or oversized answer. It may have acted.
 */
export type FailureClass = 'never-sent' | 'refused' | 'ambiguous';

export function classifyFailure(err: unknown): FailureClass {
  if (err instanceof InputError) return 'refused';
  // Anything unexpected is treated as the worst case: it may have reached the service.
  if (!isServiceError(err)) return 'ambiguous';
  if (err.refused) return 'refused';
  return err.mayHaveReached ? 'ambiguous' : 'never-sent';
}

/** Calls that create or move something: a second one could act twice (no idempotency key, spec 7). */
const NOT_IDEMPOTENT: ReadonlySet<Operation> = new Set([
  'transfer',
  'offramp',
  'createBeneficiary',
  'createIdentity',
  'createUser',
]);
export const isIdempotent = (operation: Operation): boolean => !NOT_IDEMPOTENT.has(operation);

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
