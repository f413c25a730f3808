/**
 * `rampart audit export` as a use case: every request created in [since, until], oldest
 * first, with its whole history, written as it is read — a page of ids at a time from the time
 * index — so a hundred thousand requests never sit in memory together.
 */
import { auditRecord } from '../audit/audit-record.js';
import { type AuditRow, auditRows, isBatchRecord } from '../audit/batch-rows.js';
import { type AuditFormat, csvHeader, csvRows, jsonLine } from '../audit/format.js';
import type { HistoryEntry, RequestRecord } from '../domain/request.js';
import type { RequestStore } from '../store/requests.js';

export interface ExportDeps {
  store: Pick<RequestStore, 'idsCreatedBetween' | 'get' | 'history' | 'batches' | 'executions'>;
  /** Resolves when the chunk may be followed by the next (the sink's backpressure). */
  write(chunk: string): Promise<void>;
}

export interface ExportRange {
  since: number;
  until: number;
  format: AuditFormat;
  pageSize?: number;
}

export type ExportOutcome = { kind: 'exported'; requests: number; events: number };

async function readPage(
  store: ExportDeps['store'],
  ids: readonly string[],
): Promise<[RequestRecord | undefined, HistoryEntry[], AuditRow[] | undefined][]> {
  // Sent together on one connection: Redis answers a page in one pass, not one round trip each.
  return Promise.all(
    ids.map(async (id) => {
      const [record, history] = await Promise.all([store.get(id), store.history(id)]);
      // A batch carries its rows.
      const rows = record && isBatchRecord(record) ? await auditRows(store, record) : undefined;
      return [record, history, rows] as [RequestRecord | undefined, HistoryEntry[], AuditRow[] | undefined];
    }),
  );
}

export async function exportAudit(deps: ExportDeps, range: ExportRange): Promise<ExportOutcome> {
  const pageSize = range.pageSize ?? 500;
  let requests = 0;
  let events = 0;
  if (range.format === 'csv') await deps.write(csvHeader());
  let page: string[] = [];
  const flush = async () => {
    let chunk = '';
    for (const [record, history, rows] of await readPage(deps.store, page)) {
      if (!record) continue; // removed between the index read and this one
      const row = auditRecord(record, history, rows);
      chunk += range.format === 'csv' ? csvRows(row) : jsonLine(row);
      requests += 1;
      events += row.history.length;
    }
    page = [];
    if (chunk !== '') await deps.write(chunk);
  };
  for await (const id of deps.store.idsCreatedBetween(range.since, range.until, pageSize)) {
    page.push(id);
    if (page.length >= pageSize) await flush();
  }
  await flush();
  return { kind: 'exported', requests, events };
}
