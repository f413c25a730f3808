/**
 * The full hash a passkey vote commits to (issue 22). A single request: the SHA-256 of its sealed
 * call (domain/step-up.ts approvalHashOf). A batch (issue 20): DESIGN's approvalHash over every
 * row's sealHash, read from its executions, so an assertion binds every row, not only the total;
 * it must still start with the card's short hash, or a row changed since it was sealed.
 */
import { approvalHash } from '../domain/approval.js';
import type { RequestRecord } from '../domain/request.js';
import { approvalHashOf } from '../domain/step-up.js';
import type { RequestStore } from '../store/requests.js';

const PAGE = 500;

export const isBatchRecord = (r: RequestRecord): boolean => r.frozen.display.batch !== undefined;

/** undefined: a batch whose rows no longer match the hash it was sealed with. */
export async function stepUpHash(
  store: Pick<RequestStore, 'executions'>,
  r: RequestRecord,
): Promise<string | undefined> {
  if (!isBatchRecord(r)) return approvalHashOf(r.frozen);
  const seals: string[] = [];
  for (let offset = 0; offset < r.executionCount; offset += PAGE)
    for (const e of await store.executions.page(r.frozen.id, offset, PAGE, r.executionCount)) seals.push(e.sealHash);
  if (seals.length !== r.executionCount || seals.some((s) => s.length !== 64)) return undefined;
  const body = r.frozen.call.body as { wallet_id?: string; asset?: string };
  const full = approvalHash(r.frozen.call.kind, body.wallet_id ?? '', body.asset ?? '', seals);
  return full.startsWith(r.frozen.hash) ? full : undefined;
}
