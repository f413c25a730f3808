/**
 * A finished batch's total moved, read from its rows when it is drawn. The batch record keeps
 * counts only, and a row's finish stays one script: a finished batch is drawn a handful of
 * times (its last card, the requester's message, App Home), so the read is paid there, once per
 * draw, and only when something succeeded.
 */
import { assetDecimals, succeededTotal } from '../domain/batch-money.js';
import type { RequestRecord } from '../domain/request.js';
import { isBatchRecord } from '../domain/request.js';
import type { RequestStore } from '../store/requests.js';
import { batchRowOutcomes } from './request-reads.js';

/** The record with `moved` when it is a finished batch that paid at least one row; as it was otherwise. */
export async function withMoved(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<RequestRecord> {
  if (!isBatchRecord(record) || record.approvalState !== 'done' || record.counts.succeeded === 0) return record;
  const rows = await batchRowOutcomes(store, record);
  const moved = succeededTotal(rows, assetDecimals((record.sealed.call.body as { asset?: string }).asset));
  return { ...record, moved };
}
