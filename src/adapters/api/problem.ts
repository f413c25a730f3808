/**
 * Errors of the HTTP API as RFC 9457 `application/problem+json`: a stable `code`
 * callers branch on, one sentence saying what is wrong and what to do, and for fields the JSON
 * pointer of what was sent. Nothing secret or personal goes in a problem.
 */
import { STATUS_CODES } from 'node:http';

export type ProblemCode =
  | 'invalid_field'
  | 'unknown_wallet'
  | 'malformed_json'
  | 'too_deep'
  | 'missing_idempotency_key'
  | 'idempotency_key_reused'
  | 'idempotency_in_flight'
  | 'unauthorized'
  | 'owner_check_failed'
  | 'missing_scope'
  | 'wallet_not_allowed'
  | 'asset_not_allowed'
  | 'amount_over_key_limit'
  | 'key_limits_unreadable'
  | 'too_many_open'
  | 'new_destination_not_allowed'
  | 'not_found'
  | 'not_cancellable'
  | 'already_started'
  | 'not_waiting'
  | 'not_allowed_to_cancel'
  | 'method_not_allowed'
  | 'body_timeout'
  | 'too_large'
  | 'unsupported_media_type'
  | 'frozen'
  | 'velocity_exceeded'
  | 'policy_refused'
  | 'screening_listed'
  | 'screening_no_list'
  | 'screening_stale'
  | 'screening_identified'
  | 'screening_unanswered'
  | 'rate_limited'
  | 'service_unavailable'
  | 'not_submitted';

export interface FieldProblem {
  pointer: string;
  detail: string;
}

export interface Problem {
  type: 'about:blank';
  title: string;
  status: number;
  code: ProblemCode;
  detail: string;
  errors?: FieldProblem[];
}

/** A problem answer, with the headers it needs (Retry-After on 429 and 503). */
export interface ProblemAnswer {
  problem: Problem;
  headers?: Record<string, string>;
}

export function problem(
  status: number,
  code: ProblemCode,
  detail: string,
  extra: { errors?: FieldProblem[]; headers?: Record<string, string> } = {},
): ProblemAnswer {
  return {
    problem: {
      type: 'about:blank',
      title: STATUS_CODES[status] ?? 'Error',
      status,
      code,
      detail,
      ...(extra.errors ? { errors: extra.errors } : {}),
    },
    ...(extra.headers ? { headers: extra.headers } : {}),
  };
}

/** Field errors as one problem: the first sentence is the detail, each field its own entry. */
export function fieldProblem(errors: FieldProblem[], code: ProblemCode = 'invalid_field', status = 400): ProblemAnswer {
  const detail = errors.length === 1 ? (errors[0]?.detail ?? '') : `${errors.length} fields need fixing; see errors.`;
  return problem(status, code, detail, { errors });
}

export const retryAfter = (ms: number): Record<string, string> => ({
  'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))),
});
