/**
 * The full hash a passkey commits to, and the state each purpose needs. Every card
 * shows the first 10 characters of its approval's approvalHash (DESIGN "States, ids and hashes"):
 * a single request's over its one sealHash (domain/step-up.ts sealedApprovalHash), a batch's over
 * every row's sealHash, read from its executions, so an assertion binds every row, not only the
 * total. The hash must still start with the card's short hash, or a call changed since it was sealed.
 */
import { approvalHash, parseExecutionId } from '../domain/approval.js';
import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { ExecutionRecord, RequestRecord } from '../domain/request.js';
import { isBatchRecord } from '../domain/request.js';
import { sealedApprovalHash, v1ApprovalHash } from '../domain/step-up.js';
import type { RequestStore } from '../store/requests.js';

const PAGE = 500;

export { isBatchRecord };

/** undefined: the stored calls no longer match the hash the card shows. */
export async function stepUpHash(
  store: Pick<RequestStore, 'executions'>,
  r: RequestRecord,
): Promise<string | undefined> {
  // A series has no execution of its own: its one template call and run dates are on the record.
  if (r.shape === 'series' || (!isBatchRecord(r) && r.executionCount === 1)) return sealedApprovalHash(r.sealed);
  const seals: string[] = [];
  for (let offset = 0; offset < r.executionCount; offset += PAGE)
    for (const e of await store.executions.page(r.sealed.id, offset, PAGE, r.executionCount)) seals.push(e.sealHash);
  if (seals.length !== r.executionCount || seals.some((s) => s.length !== 64)) return undefined;
  const body = r.sealed.call.body as { wallet_id?: string; asset?: string };
  const full = approvalHash(r.sealed.call.kind, body.wallet_id ?? '', body.asset ?? '', seals, r.sealed.timing);
  return full.startsWith(r.sealed.hash) ? full : undefined;
}

/**
 * What a v1 challenge committed to: a batch's approvalHash as above; a single request's call
 * SHA-256. A final record's call may be masked and keeps the original's hash;
 * money calls hold nothing to mask, so theirs must still hash to it.
 */
export async function v1Hash(store: Pick<RequestStore, 'executions'>, r: RequestRecord): Promise<string | undefined> {
  if (isBatchRecord(r)) return stepUpHash(store, r);
  const now = v1ApprovalHash(r.sealed);
  const kept = r.sealed.redacted?.callSha256;
  if (!kept) return now;
  const money = r.sealed.call.kind === 'transfer' || r.sealed.call.kind === 'offramp';
  return money && now !== kept ? undefined : kept;
}

export type RecordPurpose = 'approve' | 'resume' | 'confirm-not-paid';

/** The approval a purpose's subject belongs to: itself, or an execution's approval. */
export const approvalOfSubject = (purpose: RecordPurpose, subject: string): string | undefined =>
  purpose === 'confirm-not-paid' ? parseExecutionId(subject)?.approvalId : subject;

export interface Subject {
  record: RequestRecord;
  /** confirm-not-paid: the execution whose outcome is unknown. */
  execution?: ExecutionRecord;
  /** confirm-not-paid of a batch's row: that row, as the file gave it (its destination in full). */
  row?: BatchRowRecord;
}

/**
 * The subject when it is in its purpose's state — approve: a pending approval; resume: a paused
 * batch; confirm-not-paid: an execution whose outcome is unknown — else undefined.
 */
export async function subjectInState(
  store: Pick<RequestStore, 'get' | 'executions' | 'batches'>,
  purpose: RecordPurpose,
  subject: string,
): Promise<Subject | undefined> {
  const id = approvalOfSubject(purpose, subject);
  const record = id === undefined ? undefined : await store.get(id);
  if (!record) return undefined;
  if (purpose === 'approve') return record.state === 'pending' ? { record } : undefined;
  if (purpose === 'resume') return record.approvalState === 'paused' ? { record } : undefined;
  const execution = await store.executions.get(subject);
  if (execution?.state !== 'unknown') return undefined;
  // A batch's rows are kept under its id (store/batches.ts).
  if (record.shape !== 'batch') return { record, execution };
  const n = parseExecutionId(subject)?.n ?? 0;
  const row = (await store.batches.rows(record.sealed.id))[n - 1];
  return row ? { record, execution, row } : { record, execution };
}

/** Everyone a card may mention: requester, voters, decider, the approver on the page. */
export function peopleOf(r: RequestRecord, approver: string): string[] {
  const ids = [r.sealed.requester, approver, ...r.votes.map((v) => v.user), r.decidedBy, r.outcome?.resolution?.by];
  if (r.sealed.display.beneficiaryStatedBy) ids.push(r.sealed.display.beneficiaryStatedBy);
  return [...new Set(ids.filter((id): id is string => id !== undefined && id !== ''))];
}
