/**
 * Idempotency-Key on every POST (issue 21; the IETF httpapi draft's semantics): the same key
 * and the same canonical JSON get the first answer again with `Idempotent-Replayed: true`; a
 * different body 422; an attempt still in flight 409. The request itself can never be made
 * twice: the create script claims `submission` in one step with the create (store.create), so
 * a process killed between the create and its answer leaves a claim a retry finds and answers
 * from (recover).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/request.js';
import { type IdempotencyRecord, RETENTION_MS } from '../store/idempotency.js';
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

export async function idempotent(deps: ApiDeps, a: Attempt): Promise<Outcome> {
  const { idempotency: store } = deps;
  const now = deps.now();
  // Records last 7 days by the injected clock; an older one starts a new generation.
  const fresh = (r: IdempotencyRecord | undefined) => (r && now - r.since < RETENTION_MS ? r : undefined);
  const read = async () => fresh(await store.read(a.keyId, a.idempotencyKey));
  const claimed = (r: IdempotencyRecord) =>
    deps.store.submittedAs(store.submission(a.keyId, a.idempotencyKey, r.since));
  const replay = (r: IdempotencyRecord & { answer: NonNullable<IdempotencyRecord['answer']> }): Outcome =>
    r.fingerprint === a.fingerprint
      ? { answer: { ...r.answer, keep: true, ...locationOf(r.answer) }, replayed: true }
      : { answer: REUSED, replayed: false };
  const recover = async (r: IdempotencyRecord, requestId: string): Promise<Outcome> => {
    const answer = await a.recover(requestId);
    await store.write(a.keyId, a.idempotencyKey, { ...r, answer: { status: answer.status, body: answer.body } });
    return { answer, replayed: true };
  };

  let record = await read();
  if (record?.answer) return replay({ ...record, answer: record.answer });
  const lock = await store.lock(a.keyId, a.idempotencyKey);
  if (!lock) {
    record = await read();
    if (record?.answer) return replay({ ...record, answer: record.answer });
    if (record && record.fingerprint !== a.fingerprint) return { answer: REUSED, replayed: false };
    const id = record ? await claimed(record) : undefined;
    return record && id ? recover(record, id) : { answer: IN_FLIGHT, replayed: false };
  }
  try {
    record = await read();
    if (record?.answer) return replay({ ...record, answer: record.answer });
    if (record) {
      const id = await claimed(record);
      if (id) return record.fingerprint === a.fingerprint ? recover(record, id) : { answer: REUSED, replayed: false };
      // Nothing was made for that body (a transient refusal): this attempt starts afresh.
      if (record.fingerprint !== a.fingerprint) record = undefined;
    }
    if (!record) {
      record = { fingerprint: a.fingerprint, since: now };
      await store.write(a.keyId, a.idempotencyKey, record);
    }
    const answer = await a.run(store.submission(a.keyId, a.idempotencyKey, record.since));
    if (answer.keep)
      await store.write(a.keyId, a.idempotencyKey, { ...record, answer: { status: answer.status, body: answer.body } });
    else await store.forget(a.keyId, a.idempotencyKey);
    return { answer, replayed: false };
  } finally {
    await store.unlock(a.keyId, a.idempotencyKey, lock);
  }
}

/** A replayed 201 carries its Location again. */
function locationOf(answer: { status: number; body: unknown }): { headers?: Record<string, string> } {
  const id = (answer.body as { id?: unknown } | null)?.id;
  return answer.status === 201 && typeof id === 'string' ? { headers: { Location: `/api/v1/requests/${id}` } } : {};
}
