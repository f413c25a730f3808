/**
 * A stored request as the API shows it (pure). States are DESIGN's ("States, ids and hashes"),
 * read from the approval's own state and counts and from its real execution records,
 * never derived from the one-word view state: a single request `R-<n>` is an approval with one
 * execution `R-<n>.1`; a batch `B-<n>` one with an execution per row, `B-<n>.k` paying row k.
 */

import type { BatchRowRecord } from '../../domain/batch-approval.js';
import type { ExecutionRecord, HistoryEntry, RequestOutcome, RequestRecord } from '../../domain/request.js';
import { sealedSeriesSentence } from '../../domain/series.js';
import { runAtOf } from '../../domain/timing.js';
import type { RequestView } from './schemas.js';

/** The card's sentence in plain text, the destination as sent (an address or a beneficiary id). */
const seriesWords = (f: RequestRecord['sealed']): string | undefined =>
  f.call.kind === 'transfer' || f.call.kind === 'offramp'
    ? sealedSeriesSentence(f, f.call.kind === 'transfer' ? f.call.body.receiver : f.call.body.beneficiary_id)
    : undefined;

/** What presenting an execution reads of its record. */
type ExecutionView = Pick<ExecutionRecord, 'id' | 'state' | 'outcome'>;

/** One page of a request's executions, with the rows they pay (batches) and where the rest are. */
export interface ExecutionPage {
  executions: readonly ExecutionView[];
  /** A batch's rows in order: execution k pays rows[k-1]. */
  rows?: readonly BatchRowRecord[] | undefined;
  next: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const numberOf = (executionId: string) => Number(executionId.slice(executionId.lastIndexOf('.') + 1));

export function presentExecution(
  e: ExecutionView,
  rows?: readonly BatchRowRecord[],
  /** A record from before format 2 kept its one outcome on the request. */
  recordOutcome?: RequestOutcome,
): RequestView['executions'][number] {
  const o = e.outcome ?? recordOutcome ?? {};
  const message = o.failure ? (o.failure.detail ?? o.failure.serviceMessage ?? o.failure.code) : o.message;
  const k = numberOf(e.id);
  const row = rows?.[k - 1];
  return defined({
    id: e.id,
    state: e.state,
    hash: o.hash,
    link: o.link,
    reference: o.reference,
    message: e.state === 'failed' || e.state === 'unknown' ? message : undefined,
    row: row
      ? defined({ number: k, destination: row.destination, amount: row.amount, reference: row.reference })
      : undefined,
  });
}

export function presentRequest(
  r: RequestRecord,
  history: readonly HistoryEntry[],
  page: ExecutionPage = { executions: r.executions, next: null },
): RequestView {
  const f = r.sealed;
  const { call, display } = f;
  const money = call.kind === 'transfer' || call.kind === 'offramp' ? call : undefined;
  // A batch's own call only describes it (first row, total amount); its destinations are on its rows.
  const single = r.shape !== 'batch';
  return defined({
    id: f.id,
    object: 'request' as const,
    kind: call.kind,
    state: r.approvalState,
    wallet: money ? (display.walletAlias ?? money.body.wallet_id) : undefined,
    asset: money?.body.asset,
    // The wire number is exact (parseAmount bounds its digits); String() gives its plain decimal.
    amount: money ? String(money.body.amount) : undefined,
    receiver: single && call.kind === 'transfer' ? call.body.receiver : undefined,
    beneficiary: single && call.kind === 'offramp' ? call.body.beneficiary_id : undefined,
    reason: f.reason,
    requester: f.requester,
    api_key: display.viaApi?.keyName,
    new_destination:
      display.viaApi && call.kind === 'transfer'
        ? single
          ? display.newReceiver === true
          : (display.batch?.newDestinations?.length ?? 0) > 0
        : undefined,
    hash: f.hash,
    required_approvals: f.requiredApprovals,
    approvals: r.votes.map((v) => ({ user: v.user, at: iso(v.at) })),
    created_at: iso(f.createdAt),
    expires_at: iso(f.expiresAt),
    ...(runAtOf(r) === undefined ? {} : { run_at: iso(runAtOf(r) as number) }),
    ...(f.schedule
      ? {
          schedule: {
            sentence: seriesWords(f),
            zone: f.schedule.zone,
            runs: f.schedule.runs.map(iso),
          },
        }
      : {}),
    history: history.map((h) =>
      defined({ at: iso(h.at), event: h.event, by: h.by, detail: h.detail, execution: h.execution }),
    ),
    execution_count: r.executionCount,
    execution_counts: { ...r.counts },
    executions: page.executions.map((e) =>
      presentExecution(e, page.rows, r.executionCount === 1 ? r.outcome : undefined),
    ),
    executions_next_cursor: page.next,
  });
}
