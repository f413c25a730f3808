/**
 * Idempotency-Key on every POST (the IETF httpapi draft's semantics): the same key
 * and the same canonical JSON get the first answer again with `Idempotent-Replayed: true`; a
 * different body 422; an attempt still in flight 409. The records, and the create claim that
 * keeps a request from being made twice, are the app's (apiKeys.once); this file checks the
 * header and phrases the outcome.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/request.js';
import type { Answer } from './create.js';
import type { ApiDeps } from './deps.js';
import { type ProblemAnswer, problem } from './problem.js';

export interface Outcome {
  answer: Answer;
  replayed: boolean;
}

/** 1–255 printable ASCII characters, as the draft suggests (a UUID fits). */
const KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotencyKeyProblem(value: string | string[] | undefined): ProblemAnswer | undefined {
  if (value === undefined)
    return problem(400, 'missing_idempotency_key', 'Send an Idempotency-Key header (e.g. a UUID) with every POST.');
  if (typeof value !== 'string' || !KEY.test(value))
    return problem(
      400,
      'missing_idempotency_key',
      'The Idempotency-Key must be 1 to 255 printable characters, e.g. a UUID.',
    );
  return undefined;
}

export const fingerprint = (method: string, path: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');

const asAnswer = (p: ProblemAnswer): Answer => ({ status: p.problem.status, body: p.problem, keep: false });
const REUSED = asAnswer(
  problem(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was used with a different body; use a new key for a new request.',
  ),
);
const IN_FLIGHT = asAnswer(
  problem(
    409,
    'idempotency_in_flight',
    'A request with this Idempotency-Key is still being processed; retry in a moment.',
    {
      headers: { 'Retry-After': '1' },
    },
  ),
);

export interface Attempt {
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** The work, given the create claim's name. */
  run(submission: string): Promise<Answer>;
  /** The answer for a create that happened but was never answered. */
  recover(requestId: string): Promise<Answer>;
}

/** The app keeps the records (apiKeys.once); this maps what it says to the answer sent. */
export async function idempotent(deps: Pick<ApiDeps, 'app'>, a: Attempt): Promise<Outcome> {
  const once = await deps.app.apiKeys.once(a);
  switch (once.kind) {
    case 'answered':
      return { answer: once.answer, replayed: false };
    case 'recovered':
      return { answer: once.answer, replayed: true };
    case 'replayed':
      return { answer: { ...once.answer, keep: true, ...locationOf(once.answer) }, replayed: true };
    case 'reused':
      return { answer: REUSED, replayed: false };
    case 'in_flight':
      return { answer: IN_FLIGHT, replayed: false };
  }
}

/** A replayed 201 carries its Location again. */
function locationOf(answer: { status: number; body: unknown }): { headers?: Record<string, string> } {
  const id = (answer.body as { id?: unknown } | null)?.id;
  return answer.status === 201 && typeof id === 'string' ? { headers: { Location: `/api/v1/requests/${id}` } } : {};
}
