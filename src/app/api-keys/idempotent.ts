/**
 * Idempotency-Key on every API POST (the IETF httpapi draft's semantics): the same key and the
 * same body's fingerprint get the first answer again; a different body is refused; an attempt
 * still in flight is refused. The request itself can never be made twice: the create script
 * claims `submission` in one step with the create (store.create), so a process killed between
 * the create and its answer leaves a claim a retry finds and answers from (`recover`).
 */
import { type IdempotencyRecord, liveRecord, replayOutcome, type StoredAnswer } from '../../domain/idempotency.js';
import type { RequestStore } from '../../store/requests.js';
import { type ApiPorts, apiPortsOf } from './ports.js';

export type { StoredAnswer };

/** An answer the door built; `keep`: may it be stored and replayed (the create, fixed refusals). */
export interface Keepable extends StoredAnswer {
  keep: boolean;
}

export interface Attempt<A extends Keepable> {
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** The work, given the create claim's name. */
  run(submission: string): Promise<A>;
  /** The answer for a create that happened but was never answered. */
  recover(requestId: string): Promise<A>;
}

export type Once<A> =
  /** This attempt ran the work. */
  | { kind: 'answered'; answer: A }
  /** The first attempt's stored answer, again. */
  | { kind: 'replayed'; answer: StoredAnswer }
  /** The create happened but was never answered: answered now from what was stored. */
  | { kind: 'recovered'; answer: A }
  | { kind: 'reused'; code: 'idempotency_key_reused' }
  | { kind: 'in_flight'; code: 'idempotency_in_flight' };

export interface OnceDeps {
  store: Pick<RequestStore, 'submittedAs'>;
  api?: ApiPorts | undefined;
  now: () => number;
}

const REUSED = { kind: 'reused', code: 'idempotency_key_reused' } as const;
const IN_FLIGHT = { kind: 'in_flight', code: 'idempotency_in_flight' } as const;

export async function idempotent<A extends Keepable>(deps: OnceDeps, a: Attempt<A>): Promise<Once<A>> {
  const store = apiPortsOf(deps).idempotency;
  const now = deps.now();
  // Records last 7 days by the injected clock; an older one starts a new generation.
  const read = async () => liveRecord(await store.read(a.keyId, a.idempotencyKey), now);
  const claimed = (r: IdempotencyRecord) =>
    deps.store.submittedAs(store.submission(a.keyId, a.idempotencyKey, r.since));
  /** An answered record's reply to this attempt, or undefined when none is answered yet. */
  const answered = (r: IdempotencyRecord | undefined): Once<A> | undefined => {
    const replay = replayOutcome(r, a.fingerprint);
    if (replay.kind === 'none') return undefined;
    return replay.kind === 'replay' ? { kind: 'replayed', answer: replay.answer } : REUSED;
  };
  const recover = async (r: IdempotencyRecord, requestId: string): Promise<Once<A>> => {
    const answer = await a.recover(requestId);
    await store.write(a.keyId, a.idempotencyKey, { ...r, answer: { status: answer.status, body: answer.body } });
    return { kind: 'recovered', answer };
  };

  let record = await read();
  const first = answered(record);
  if (first) return first;
  const lock = await store.lock(a.keyId, a.idempotencyKey);
  if (!lock) {
    record = await read();
    const meanwhile = answered(record);
    if (meanwhile) return meanwhile;
    if (record && record.fingerprint !== a.fingerprint) return REUSED;
    const id = record ? await claimed(record) : undefined;
    return record && id ? recover(record, id) : IN_FLIGHT;
  }
  try {
    record = await read();
    const locked = answered(record);
    if (locked) return locked;
    if (record) {
      const id = await claimed(record);
      if (id) return record.fingerprint === a.fingerprint ? recover(record, id) : REUSED;
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
    return { kind: 'answered', answer };
  } finally {
    await store.unlock(a.keyId, a.idempotencyKey, lock);
  }
}
