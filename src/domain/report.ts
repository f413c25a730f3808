/**
 * The treasury report (issue 24) from stored facts only: outflow per day per asset code (with
 * each code's velocity limit beside it), totals per kind and outcome, the ten largest payments,
 * destinations paid for the first time, how long approvals took, and unknown outcomes nobody has
 * resolved yet. Pure: the caller reads the records; days are the report zone's calendar days.
 */
import { amountFromNumber, parseAmount } from './amount.js';
import type { ExecutionState } from './approval.js';
import { assetInfo } from './assets.js';
import type { BatchRowRecord } from './batch-approval.js';
import { PAID_BENEFICIARIES, paidAs } from './destination-key.js';
import type { RequestRecord } from './request.js';

export interface ReportWindow {
  since: number;
  until: number;
  /** IANA zone whose calendar days the chart uses. */
  zone: string;
}

export interface Payment {
  /** `R-n`, or a batch row's execution `B-n.k` (issue 24: each row is a payment). */
  id: string;
  kind: 'transfer' | 'offramp';
  state: RequestRecord['state'] | ExecutionState;
  wallet: string;
  code: string;
  /** Exact minor units and their decimals. */
  units: bigint;
  decimals: number;
  destination: string;
  /** Where it pays as paid-before compares it (domain/destination-key.ts `paidAs`). */
  paidAs: string;
  at: number;
  approvalMs: number | undefined;
}

export interface Report {
  window: ReportWindow;
  days: string[];
  /** Asset code → minor units moved per day (succeeded only), in `days` order; decimals beside. */
  outflow: Record<string, { decimals: number; perDay: bigint[] }>;
  /** "transfer succeeded" → count. */
  totals: Record<string, number>;
  largest: Payment[];
  firstTime: Payment[];
  approval: { median: number; slowest: number; count: number } | undefined;
  unresolved: Payment[];
}

export const isBatchRecord = (record: RequestRecord): boolean => record.frozen.id.startsWith('B-');

/**
 * A money-moving record as a payment, or undefined for anything else. A batch `B-n` is not one
 * payment: its own call only describes the total and is never sent; its rows are (batchPayments).
 */
export function paymentOf(record: RequestRecord): Payment | undefined {
  const { call, display, id, createdAt } = record.frozen;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  if (isBatchRecord(record)) return undefined;
  if (call.body.amount < 0) return undefined; // an old "entire balance" record carries no exact amount
  const asset = assetInfo(call.body.asset);
  return {
    id,
    kind: call.kind,
    state: record.state,
    wallet: display.walletAlias ?? call.body.wallet_id,
    code: asset.code.toUpperCase(),
    units: amountFromNumber(call.body.amount, asset.decimals).units,
    decimals: asset.decimals,
    destination: call.kind === 'transfer' ? call.body.receiver : (display.beneficiaryLabel ?? call.body.beneficiary_id),
    paidAs:
      call.kind === 'transfer'
        ? paidAs(asset.chain, call.body.receiver)
        : paidAs(PAID_BENEFICIARIES, call.body.beneficiary_id),
    at: record.decidedAt ?? createdAt,
    approvalMs: record.decidedAt !== undefined && record.votes.length > 0 ? record.decidedAt - createdAt : undefined,
  };
}

/** One row of a batch as the store holds it: the approved row, its execution's state and when it got there. */
export interface BatchRowFacts {
  row: BatchRowRecord;
  executionId: string;
  state: ExecutionState;
  /** When the execution reached its state (its last history entry); undefined: not started. */
  at: number | undefined;
}

/**
 * A batch's rows as payments (issue 24): each with its own amount, destination, state and time,
 * in the asset and kind of the batch. The batch's one approval is counted once, on its first row.
 */
export function batchPayments(record: RequestRecord, rows: readonly BatchRowFacts[]): Payment[] {
  const { call, display, createdAt } = record.frozen;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return [];
  const asset = assetInfo(call.body.asset);
  const approvalMs =
    record.decidedAt !== undefined && record.votes.length > 0 ? record.decidedAt - createdAt : undefined;
  return rows.map((r, i) => ({
    id: r.executionId,
    kind: call.kind as 'transfer' | 'offramp',
    state: r.state,
    wallet: display.walletAlias ?? call.body.wallet_id,
    code: asset.code.toUpperCase(),
    units: parseAmount(r.row.amount, asset.decimals).units,
    decimals: asset.decimals,
    destination: r.row.destination,
    paidAs: paidAs(call.kind === 'transfer' ? asset.chain : PAID_BENEFICIARIES, r.row.destination),
    at: r.at ?? record.decidedAt ?? createdAt,
    approvalMs: i === 0 ? approvalMs : undefined,
  }));
}

const dayFormat = new Map<string, Intl.DateTimeFormat>();
/** YYYY-MM-DD of the instant in the zone. */
export function dayOf(ms: number, zone: string): string {
  let f = dayFormat.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormat.set(zone, f);
  }
  return f.format(ms);
}

function daysBetween(window: ReportWindow): string[] {
  const days: string[] = [];
  for (let t = window.since; t < window.until + 86_400_000; t += 3_600_000) {
    const d = dayOf(Math.min(t, window.until), window.zone);
    if (days.at(-1) !== d) days.push(d);
  }
  return days;
}

/** Minor units on one scale (18 places), so amounts of different decimals compare exactly. */
const scaled = (p: Payment) => p.units * 10n ** BigInt(18 - p.decimals);
const byUnitsDesc = (a: Payment, b: Payment) => (scaled(a) === scaled(b) ? 0 : scaled(a) > scaled(b) ? -1 : 1);

/**
 * @param records every record created in the window (and any older one finished in it)
 * @param paidBefore whether a payment's `paidAs` was paid before the window began ("first time" excludes them)
 * @param batchRows the rows of the batches among `records` (batchPayments), each a payment
 */
export function buildReport(
  records: readonly RequestRecord[],
  window: ReportWindow,
  paidBefore: (paidAs: string) => boolean,
  batchRows: readonly Payment[] = [],
): Report {
  const days = daysBetween(window);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const outflow: Report['outflow'] = {};
  const totals: Record<string, number> = {};
  const payments: Payment[] = [];
  const seen = new Set<string>();
  const firstTime: Payment[] = [];
  const approvals: number[] = [];
  const inWindow = (t: number) => t >= window.since && t <= window.until;
  const inside = [...records.map(paymentOf).filter((p): p is Payment => p !== undefined), ...batchRows]
    .filter((p) => inWindow(p.at))
    .sort((a, b) => a.at - b.at);
  for (const p of inside) {
    totals[`${p.kind} ${p.state}`] = (totals[`${p.kind} ${p.state}`] ?? 0) + 1;
    if (p.approvalMs !== undefined) approvals.push(p.approvalMs);
    if (p.state !== 'succeeded' && p.state !== 'unknown') continue;
    payments.push(p);
    if (p.state === 'succeeded') {
      const series = outflow[p.code] ?? { decimals: p.decimals, perDay: days.map(() => 0n) };
      outflow[p.code] = series;
      const i = dayIndex.get(dayOf(p.at, window.zone));
      if (i !== undefined) series.perDay[i] = (series.perDay[i] ?? 0n) + p.units;
      if (!seen.has(p.paidAs) && !paidBefore(p.paidAs)) firstTime.push(p);
      seen.add(p.paidAs);
    }
  }
  approvals.sort((a, b) => a - b);
  const mid = approvals.length >> 1;
  return {
    window,
    days,
    outflow,
    totals,
    largest: payments
      .filter((p) => p.state === 'succeeded')
      .sort(byUnitsDesc)
      .slice(0, 10),
    firstTime,
    approval:
      approvals.length === 0
        ? undefined
        : {
            median:
              approvals.length % 2 ? (approvals[mid] ?? 0) : ((approvals[mid - 1] ?? 0) + (approvals[mid] ?? 0)) / 2,
            slowest: approvals.at(-1) ?? 0,
            count: approvals.length,
          },
    unresolved: payments.filter((p) => p.state === 'unknown'),
  };
}
