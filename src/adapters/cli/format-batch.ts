/**
 * What `rampart batch status` and `requests show B-…` print of a batch: its state,
 * counts per row state, why it is paused, the total moved, and its executions. Pure.
 */
import type { BatchRowOutcome } from '../../app/notifier.js';
import { type Amount, formatAmount } from '../../domain/amount.js';
import { EXECUTION_STATES } from '../../domain/approval.js';
import type { HistoryEntry, RequestRecord } from '../../domain/request.js';
import { outcomeMessage } from '../../presenters/describe-error.js';
import { keyValues, table } from './table.js';

/** Why a paused batch is paused: its unknown rows, else the last recorded pause's words. */
export function pausedReason(
  record: RequestRecord,
  rows: readonly BatchRowOutcome[],
  history: readonly HistoryEntry[],
): string | undefined {
  if (record.approvalState !== 'paused') return undefined;
  const unknown = rows.filter((r) => r.state === 'unknown');
  if (unknown.length > 0)
    return `the outcome of ${unknown.map((r) => `row ${r.row} (${r.executionId})`).join(', ')} is UNKNOWN: check it with the service, then an approver other than the requester resumes, or anyone stops`;
  const last = [...history].reverse().find((h) => h.event.includes('pause'));
  return last?.detail ?? 'paused: an approver other than the requester resumes, or anyone stops';
}

export interface BatchStatus {
  id: string;
  state: string;
  kind: string;
  rows: number;
  counts: Record<string, number>;
  asset: string | undefined;
  wallet: string | undefined;
  total: string;
  moved: string;
  paused: string | undefined;
}

export function batchStatus(record: RequestRecord, moved: Amount, paused: string | undefined): BatchStatus {
  const body = record.sealed.call.body as { asset?: string };
  const counts = Object.fromEntries(EXECUTION_STATES.map((s) => [s, record.counts[s]]));
  return {
    id: record.sealed.id,
    state: record.approvalState,
    kind: record.sealed.display.batch?.kind ?? record.sealed.call.kind,
    rows: record.executionCount,
    counts,
    asset: body.asset,
    wallet: record.sealed.display.walletAlias,
    total: record.sealed.display.amountText ?? '',
    moved: formatAmount(moved),
    paused,
  };
}

export function batchStatusText(s: BatchStatus, code: string): string {
  const counts = EXECUTION_STATES.map((state) => `${s.counts[state] ?? 0} ${state}`).join(', ');
  return keyValues([
    ['Batch', s.id],
    ['State', s.state.toUpperCase()],
    ['Kind', `${s.rows} ${s.kind} from ${s.wallet ?? '?'} in ${s.asset ?? '?'}`],
    ['Rows', counts],
    ['Total', `${s.total} ${code}`],
    ['Moved', `${s.moved} ${code} (rows that succeeded)`],
    ...(s.paused ? ([['Paused', s.paused]] as const) : []),
  ]);
}

/** One line per execution, in row order: `requests show B-…`. */
export function executionsText(rows: readonly BatchRowOutcome[], code: string): string {
  const lines = rows.map((r) => [
    r.executionId,
    String(r.row),
    r.destination,
    `${r.amount} ${code}`,
    r.state,
    r.outcome?.hash ?? r.outcome?.reference ?? '',
    r.state === 'succeeded' ? '' : (outcomeMessage(r.outcome) ?? ''),
  ]);
  const columns = [
    { title: 'Execution' },
    { title: 'Row', align: 'right' },
    { title: 'Destination' },
    { title: 'Amount', align: 'right' },
    { title: 'State' },
    { title: 'Hash or reference' },
    { title: 'Error' },
  ] as const;
  return table(columns, lines);
}

export const executionValues = (rows: readonly BatchRowOutcome[]) =>
  rows.map((r) => ({
    id: r.executionId,
    row: r.row,
    destination: r.destination,
    amount: r.amount,
    reference: r.reference,
    state: r.state,
    hash: r.outcome?.hash,
    serviceReference: r.outcome?.reference,
    error: r.state === 'succeeded' ? undefined : outcomeMessage(r.outcome),
  }));
