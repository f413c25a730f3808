/** A batch's rows beside their executions, read a page of executions at a time. */
import type { BatchRowRecord } from '../domain/batch-approval.js';
import type { ExecutionRecord, RequestRecord } from '../domain/request.js';
import type { RequestStore } from './requests.js';

const PAGE = 500;

export interface RowWithExecution {
  row: BatchRowRecord;
  /** Undefined when the row has no execution record. */
  execution: ExecutionRecord | undefined;
}

/**
 * Every row of a batch beside its execution, in row order. The batch's thread and the CLI
 * (app/request-reads.ts) and the audit export (audit/batch-rows.ts) read through this one pager.
 */
export async function batchRowsWithExecutions(
  store: Pick<RequestStore, 'batches' | 'executions'>,
  record: RequestRecord,
): Promise<RowWithExecution[]> {
  const id = record.sealed.id;
  const rows = await store.batches.rows(id);
  const out: RowWithExecution[] = [];
  for (let offset = 0; offset < rows.length; offset += PAGE) {
    const page = await store.executions.page(id, offset, PAGE, record.executionCount);
    rows.slice(offset, offset + PAGE).forEach((row, i) => {
      out.push({ row, execution: page[i] });
    });
  }
  return out;
}
