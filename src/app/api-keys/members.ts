/**
 * The façade's members for calls made with an API key, bound to the façade's ports and grouped
 * by capability (app/index.ts places each group under its key).
 */
import type { ApiScope } from '../../domain/api-key.js';
import type { KeyActor } from '../../domain/api-rules.js';
import type { RequestRecord } from '../../domain/request.js';
import { cancelWithKey } from '../approvals/cancel-with-key.js';
import { type KeyBatch, recoverBatchWithKey, submitBatchWithKey } from '../batches/with-key.js';
import type { FacadeDeps } from '../facade-deps.js';
import { type KeySubmission, recoverWithKey, submitWithKey } from '../payments/with-key.js';
import { executionSlice, type KeyListQuery, listWithKey, readWithKey, requestWithHistory } from '../reads/with-key.js';
import { admit, authenticate } from './authenticate.js';
import { type Attempt, idempotent, type Keepable } from './idempotent.js';

export const keyMembers = (deps: FacadeDeps) => ({
  /** The keys (plain records); who calls the HTTP API, what its key may do now, its Idempotency-Key records. */
  apiKeys: {
    list: () => deps.apiKeys.list(),
    authenticate: (token: string) => authenticate(deps, token),
    admit: (actor: KeyActor, scope: ApiScope) => admit(deps, actor, scope),
    once: <A extends Keepable>(attempt: Attempt<A>) => idempotent(deps, attempt),
  },
  /** What this key may read, a request's history and executions, the key's list. */
  reads: {
    withKey: (actor: KeyActor, id: string) => readWithKey(deps, actor, id),
    withHistory: (record: RequestRecord, limit: number) => requestWithHistory(deps, record, limit),
    executions: (record: RequestRecord, offset: number, limit: number) => executionSlice(deps, record, offset, limit),
    listWithKey: (actor: KeyActor, query: KeyListQuery) => listWithKey(deps, actor, query),
  },
  /** A payment requested with an API key (its limits, the freeze, known payees, then submitRequest). */
  payments: {
    submitWithKey: (actor: KeyActor, s: KeySubmission) => submitWithKey(deps, actor, s),
    recoverWithKey: (actor: KeyActor, requestId: string) => recoverWithKey(deps, actor, requestId),
  },
  /** A batch requested with an API key: one approval, the key's limits on the whole. */
  batches: {
    submitWithKey: (actor: KeyActor, b: KeyBatch) => submitBatchWithKey(deps, actor, b),
    recoverWithKey: (actor: KeyActor, requestId: string) => recoverBatchWithKey(deps, actor, requestId),
  },
  /** Cancel with the API key that made the request. */
  approvals: {
    cancelWithKey: (actor: KeyActor, requestId: string) => cancelWithKey(deps, actor, requestId),
  },
});
