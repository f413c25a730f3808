/**
 * A failed service call as data (DESIGN invariant 3): its class and the facts an edge needs to
 * phrase it. The worker stores this on the request; Slack, the CLI and the audit export each
 * write their own sentence from it. The service's words are already masked.
 */

/**
 * - `never-sent`: no byte of the request was written; nothing can have happened.
 * - `refused`: the service's own well-formed refusal, or Rampart's own check before sending.
 * - `ambiguous`: anything else after the first byte left; it may have acted.
 */
export type FailureClass = 'never-sent' | 'refused' | 'ambiguous';

export interface FailureFacts {
  class: FailureClass;
  /** The stable error code (src/errors.ts), or INTERNAL for an unexpected error. */
  code: string;
  status?: number;
  /** The service's own message, masked. */
  serviceMessage?: string;
  /** Rampart's own sentence, when Rampart refused before sending. */
  detail?: string;
}
