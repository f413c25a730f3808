/**
 * The treasury report as a use case: reads the stored records of the window (and of
 * the 90 days before it, for "paid for the first time"), builds the pure report
 * (domain/report.ts), one chart per wallet and asset code (outflow per day, with the wallet's
 * velocity limit as a line, report-charts.ts) and the CSV of the same payments. Stored facts
 * only: no service call.
 */

import type { ChartSpec } from '../charts/chart-spec.js';
import { amountToString } from '../domain/amount.js';
import { csvLine } from '../domain/csv-safe.js';
import {
  type BatchRowFacts,
  batchPayments,
  buildReport,
  type Payment,
  paymentOf,
  type Report,
} from '../domain/report.js';
import type { RequestRecord } from '../domain/request.js';
import { isBatchRecord } from '../domain/request.js';
import type { VelocityRule } from '../domain/velocity.js';
import type { RequestStore } from '../store/requests.js';
import { type OutflowChart, outflowCharts } from './report-charts.js';

const DAY = 86_400_000;
/** How far back "paid before" looks; destinations paid only earlier than this count as new again. */
export const FIRST_TIME_LOOKBACK_MS = 90 * DAY;

export type ReportStore = Pick<RequestStore, 'idsCreatedBetween' | 'get' | 'history' | 'batches' | 'executions'>;

export interface ReportDeps {
  store: ReportStore;
  rules: readonly VelocityRule[];
  now: () => number;
}

export interface ReportView {
  report: Report;
  charts: ChartSpec[];
  /** One per chart, in the same order: the line read before it, and its limit in words when not drawn. */
  summaries: Pick<OutflowChart, 'summary' | 'limitNote'>[];
  /** Every payment of the window (succeeded, failed, unknown…), one CSV row each, header first. */
  csv: string;
  payments: Payment[];
}

export const REPORT_SPANS = { '7d': 7, '30d': 30 } as const;
export type ReportSpan = keyof typeof REPORT_SPANS;

async function recordsBetween(store: ReportDeps['store'], since: number, until: number): Promise<RequestRecord[]> {
  const ids: string[] = [];
  for await (const id of store.idsCreatedBetween(since, until)) ids.push(id);
  const records: RequestRecord[] = [];
  // Sent together on one connection: pages of reads, not one round trip each.
  for (let i = 0; i < ids.length; i += 500) {
    const page = await Promise.all(ids.slice(i, i + 500).map((id) => store.get(id)));
    for (const r of page) if (r) records.push(r);
  }
  return records;
}

const PAGE = 500;

/**
 * A batch `B-n` pays one row per execution `B-n.k`; each row counts in the report with
 * its own amount, state and time (its execution's last history entry).
 */
async function batchRowsOf(store: ReportStore, record: RequestRecord): Promise<Payment[]> {
  const id = record.sealed.id;
  const [rows, history] = await Promise.all([store.batches.rows(id), store.history(id)]);
  const lastAt = new Map<string, number>();
  for (const e of history) if (e.execution) lastAt.set(e.execution, e.at);
  const facts: BatchRowFacts[] = [];
  for (let offset = 0; offset < record.executionCount; offset += PAGE) {
    const page = await store.executions.page(id, offset, PAGE, record.executionCount);
    for (const e of page) {
      const row = rows[Number(e.id.slice(e.id.lastIndexOf('.') + 1)) - 1];
      if (row) facts.push({ row, executionId: e.id, state: e.state, at: lastAt.get(e.id) });
    }
  }
  return batchPayments(record, facts);
}

export function paymentsCsv(payments: readonly Payment[]): string {
  const header = [
    'id',
    'kind',
    'state',
    'wallet',
    'asset',
    'amount',
    'destination',
    'at',
    'approval_seconds',
    'series_run',
  ];
  const rows = payments.map((p) =>
    csvLine([
      p.id,
      p.kind,
      p.state,
      p.wallet,
      p.code,
      amountToString({ units: p.units, decimals: p.decimals }),
      p.destination,
      new Date(p.at).toISOString(),
      p.approvalMs === undefined ? undefined : Math.round(p.approvalMs / 1000),
      p.run ? `${p.run.series} run ${p.run.k}` : undefined,
    ]),
  );
  return `${[csvLine(header), ...rows].join('\n')}\n`;
}

export async function loadReport(deps: ReportDeps, days: number, zone: string): Promise<ReportView> {
  const until = deps.now();
  const since = until - days * DAY;
  // Older records too: a request created before the window may finish in it, and "first time"
  // needs the destinations paid before.
  const records = await recordsBetween(deps.store, since - FIRST_TIME_LOOKBACK_MS, until);
  const batchRows = (await Promise.all(records.filter(isBatchRecord).map((r) => batchRowsOf(deps.store, r)))).flat();
  const all = [...records.map(paymentOf).filter((p): p is Payment => p !== undefined), ...batchRows];
  const paid = new Set<string>();
  for (const p of all) if (p.state === 'succeeded' && p.at < since) paid.add(p.paidAs);
  // A series' runs, skips and end are in its history (a handful of series, read together).
  const series = records.filter((r) => r.shape === 'series').map((r) => r.sealed.id);
  const histories = new Map(await Promise.all(series.map(async (id) => [id, await deps.store.history(id)] as const)));
  const report = buildReport(records, { since, until, zone }, (k) => paid.has(k), batchRows, histories);
  const payments = all.filter((p) => p.at >= since && p.at <= until).sort((a, b) => a.at - b.at);
  const charts = outflowCharts(report, deps.rules);
  return {
    report,
    charts: charts.map((c) => c.spec),
    summaries: charts.map(({ spec: _spec, ...words }) => words),
    csv: paymentsCsv(payments),
    payments,
  };
}
