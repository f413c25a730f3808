/**
 * A batch's rows in the audit trail:
 * each row's execution id, destination, amount, reference, state and the service's proof. The
 * destination follows the log policy: an address is public and kept whole; any other destination
 * (a beneficiary id or label) has long numbers masked, as free text is everywhere.
 */
import { executionId } from '../domain/approval.js';
import type { BatchRowRecord } from '../domain/batch-approval.js';
import { maskLongNumbers } from '../domain/personal-data.js';
import type { ExecutionRecord, RequestRecord } from '../domain/request.js';
import { isBatchRecord } from '../domain/request.js';
import { batchRowsWithExecutions } from '../store/batch-row-pages.js';
import type { RequestStore } from '../store/requests.js';
import type { AuditRow } from './audit-record.js';

export type { AuditRow };

export { isBatchRecord };

export function auditRow(kind: string, id: string, row: BatchRowRecord, e: ExecutionRecord | undefined): AuditRow {
  const o = e?.outcome;
  return {
    row: row.row,
    execution_id: e?.id ?? id,
    destination: kind === 'transfer' ? row.destination : maskLongNumbers(row.destination),
    amount: row.amount,
    reference: row.reference === undefined ? undefined : maskLongNumbers(row.reference),
    state: e?.state ?? 'queued',
    proof: o?.hash ?? o?.reference ?? o?.id,
  };
}

/** Every row of a batch with its execution, in row order (a page of executions per read). */
export async function auditRows(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<AuditRow[]> {
  const id = record.sealed.id;
  return (await batchRowsWithExecutions(store, record)).map(({ row, execution }, i) =>
    auditRow(record.sealed.call.kind, executionId(id, i + 1), row, execution),
  );
}
