/**
 * The treasury report from stored facts only: outflow per day per asset code (with
 * each code's velocity limit beside it), totals per kind and outcome, the ten largest payments,
 * destinations paid for the first time, how long approvals took, and unknown outcomes nobody has
 * resolved yet. Pure: the caller reads the records; days are the report zone's calendar days.
 */
import { amountFromNumber } from './amount.js';
import type { ExecutionState } from './approval.js';
import { assetInfo, CHAINS } from './assets.js';
import { batchStatusWords } from './batch-status.js';
import { PAID_BENEFICIARIES, paidAs } from './destination-key.js';
import { dayOf, daysBetween } from './report-days.js';
import { type SeriesReportLine, seriesReportLines } from './report-series.js';
import type { HistoryEntry, RequestRecord } from './request.js';
import { isBatchRecord } from './request.js';

export { type BatchRowFacts, batchPayments } from './report-batch.js';
export { dayOf } from './report-days.js';
export type { SeriesReportLine } from './report-series.js';

export interface ReportWindow {
  since: number;
  until: number;
  /** IANA zone whose calendar days the chart uses. */
  zone: string;
}

export interface Payment {
  /** `R-n`, or a batch row's execution `B-n.k` (each row is a payment). */
  id: string;
  /** A batch row as its card and receipt name it, "B-1003 row 2" (the row of its file). */
  name?: string;
  /** A batch row whose batch is paused now. */
  batchPaused?: boolean;
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
  /** The team's own wallet the payment went to (its alias): moving money between own wallets. */
  ownWallet?: string;
  /** A series' run: run `k` of series `series` (its approval was the series', counted there). */
  run?: { series: string; k: number };
  at: number;
  approvalMs: number | undefined;
}

export interface Outflow {
  decimals: number;
  perDay: bigint[];
}

export interface Report {
  window: ReportWindow;
  days: string[];
  /** Asset code → minor units moved per day (succeeded only), in `days` order; decimals beside. */
  outflow: Record<string, Outflow>;
  /** The same per wallet alias, then asset code: a velocity limit is one wallet's. */
  walletOutflow: Record<string, Record<string, Outflow>>;
  /** "transfer succeeded" → count. */
  totals: Record<string, number>;
  largest: Payment[];
  firstTime: Payment[];
  approval: { median: number; slowest: number; count: number } | undefined;
  unresolved: Payment[];
  /** Series with runs, skips or an end in the window, and those still live (domain/report-series.ts). */
  series: SeriesReportLine[];
  /**
   * Batches of the window not finished, in their status words as the card says them ("Paused:
   * 3 rows in a row failed (13 of 20 rows run)"): their unsent rows are waiting, not news of money.
   */
  openBatches: { id: string; words: string }[];
}

/**
 * A money-moving record as a payment, or undefined for anything else. A batch `B-n` is not one
 * payment: its own call only describes the total and is never sent; its rows are (batchPayments).
 * Nor is a series `S-n`: its call is the template of its runs, each a payment of its own.
 */
export function paymentOf(record: RequestRecord): Payment | undefined {
  const { call, display, id, createdAt } = record.sealed;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return undefined;
  if (isBatchRecord(record) || record.shape === 'series') return undefined;
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
    ...(display.ownWallet ? { ownWallet: display.ownWallet } : {}),
    ...(record.run ? { run: record.run } : {}),
    at: record.decidedAt ?? createdAt,
    // A run is created approved with the series' votes: how long approval took is the series'.
    approvalMs:
      record.decidedAt !== undefined && record.votes.length > 0 && !record.run
        ? record.decidedAt - createdAt
        : undefined,
  };
}

/**
 * The team's own wallet addresses, as paid-before keys, → alias: each record names its source
 * wallet's address, and a transfer to an own wallet was named so at submission (display.ownWallet).
 */
function ownWalletKeys(records: readonly RequestRecord[]): Map<string, string> {
  const own = new Map<string, string>();
  const add = (asset: Parameters<typeof assetInfo>[0], address: string, alias: string) => {
    // One address serves every chain of its kind (wallet.address.evm / .svm).
    const kind = CHAINS[assetInfo(asset).chain].kind;
    for (const [chain, c] of Object.entries(CHAINS)) if (c.kind === kind) own.set(paidAs(chain, address), alias);
  };
  for (const { sealed } of records) {
    const { call, display } = sealed;
    if (call.kind !== 'transfer') continue;
    if (display.walletAddress && display.walletAlias) add(call.body.asset, display.walletAddress, display.walletAlias);
    if (display.ownWallet) add(call.body.asset, call.body.receiver, display.ownWallet);
  }
  return own;
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
  seriesHistories: ReadonlyMap<string, readonly HistoryEntry[]> = new Map(),
): Report {
  const days = daysBetween(window);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const outflow: Report['outflow'] = {};
  const walletOutflow: Report['walletOutflow'] = {};
  const own = ownWalletKeys(records);
  const totals: Record<string, number> = {};
  const payments: Payment[] = [];
  const seen = new Set<string>();
  const firstTime: Payment[] = [];
  const approvals: number[] = [];
  const inWindow = (t: number) => t >= window.since && t <= window.until;
  const inside = [...records.map(paymentOf).filter((p): p is Payment => p !== undefined), ...batchRows]
    .filter((p) => inWindow(p.at))
    .map((p): Payment => {
      const ownWallet = p.ownWallet ?? own.get(p.paidAs);
      return ownWallet ? { ...p, ownWallet } : p;
    })
    .sort((a, b) => a.at - b.at);
  const add = (into: Record<string, Outflow>, p: Payment, i: number) => {
    const series = into[p.code] ?? { decimals: p.decimals, perDay: days.map(() => 0n) };
    into[p.code] = series;
    series.perDay[i] = (series.perDay[i] ?? 0n) + p.units;
  };
  for (const p of inside) {
    // A paused batch's unsent rows are not queued to run: they wait for Resume or Stop.
    const state = p.batchPaused && p.state === 'queued' ? 'unsent (batch paused)' : p.state;
    totals[`${p.kind} ${state}`] = (totals[`${p.kind} ${state}`] ?? 0) + 1;
    if (p.approvalMs !== undefined) approvals.push(p.approvalMs);
    if (p.state !== 'succeeded' && p.state !== 'unknown') continue;
    payments.push(p);
    if (p.state === 'succeeded') {
      const i = dayIndex.get(dayOf(p.at, window.zone));
      if (i !== undefined) {
        add(outflow, p, i);
        const mine = walletOutflow[p.wallet] ?? {};
        walletOutflow[p.wallet] = mine;
        add(mine, p, i);
      }
      // Money moved to one of the team's own wallets is no new destination.
      if (!p.ownWallet && !seen.has(p.paidAs) && !paidBefore(p.paidAs)) firstTime.push(p);
      seen.add(p.paidAs);
    }
  }
  approvals.sort((a, b) => a - b);
  const mid = approvals.length >> 1;
  return {
    window,
    days,
    outflow,
    walletOutflow,
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
    series: seriesReportLines(records, seriesHistories, window),
    openBatches: records
      .filter((r) => isBatchRecord(r) && OPEN_BATCH.has(r.approvalState))
      .flatMap((r) => {
        const words = batchStatusWords(r);
        return words ? [{ id: r.sealed.id, words }] : [];
      }),
  };
}

const OPEN_BATCH: ReadonlySet<RequestRecord['approvalState']> = new Set(['approved', 'running', 'paused', 'stopping']);
