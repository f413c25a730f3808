/**
 * A stored request as the API shows it (pure). States are DESIGN's ("States, ids and hashes"):
 * today's single request is an approval with one execution `R-<n>.1`, which exists once the
 * request is approved.
 */
import type { HistoryEntry, RequestRecord, RequestState } from '../domain/request.js';
import type { APPROVAL_STATES, EXECUTION_STATES, RequestView } from './schemas.js';

type ApprovalState = (typeof APPROVAL_STATES)[number];
type ExecutionState = (typeof EXECUTION_STATES)[number];

const APPROVAL: Record<RequestState, ApprovalState> = {
  pending: 'pending',
  approved: 'approved',
  executing: 'running',
  succeeded: 'done',
  failed: 'done',
  unknown: 'done',
  denied: 'denied',
  cancelled: 'cancelled',
  expired: 'expired',
};

const EXECUTION: Partial<Record<RequestState, ExecutionState>> = {
  approved: 'queued',
  executing: 'executing',
  succeeded: 'succeeded',
  failed: 'failed',
  unknown: 'unknown',
};

export const approvalState = (s: RequestState): ApprovalState => APPROVAL[s];

const iso = (ms: number) => new Date(ms).toISOString();
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function executions(r: RequestRecord): RequestView['executions'] {
  // An unfreeze cancels an approved request (issue 13): its execution was queued, then cancelled.
  const approvedOnce =
    r.decidedBy !== undefined && r.state === 'cancelled' && r.votes.length >= r.frozen.requiredApprovals;
  const state = EXECUTION[r.state] ?? (approvedOnce ? 'cancelled' : undefined);
  if (!state) return [];
  const o = r.outcome ?? {};
  const message = o.failure ? (o.failure.detail ?? o.failure.serviceMessage ?? o.failure.code) : o.message;
  return [
    defined({
      id: `${r.frozen.id}.1`,
      state,
      hash: o.hash,
      link: o.link,
      reference: o.reference,
      message: state === 'failed' || state === 'unknown' ? message : undefined,
    }),
  ];
}

export function presentRequest(r: RequestRecord, history: readonly HistoryEntry[]): RequestView {
  const f = r.frozen;
  const { call, display } = f;
  const money = call.kind === 'transfer' || call.kind === 'offramp' ? call : undefined;
  return defined({
    id: f.id,
    object: 'request' as const,
    kind: call.kind,
    state: APPROVAL[r.state],
    wallet: money ? (display.walletAlias ?? money.body.wallet_id) : undefined,
    asset: money?.body.asset,
    // The wire number is exact (parseAmount bounds its digits); String() gives its plain decimal.
    amount: money ? String(money.body.amount) : undefined,
    receiver: call.kind === 'transfer' ? call.body.receiver : undefined,
    beneficiary: call.kind === 'offramp' ? call.body.beneficiary_id : undefined,
    reason: f.reason,
    requester: f.requester,
    api_key: display.viaApi?.keyName,
    new_destination: display.viaApi && call.kind === 'transfer' ? display.newReceiver === true : undefined,
    hash: f.hash,
    required_approvals: f.requiredApprovals,
    approvals: r.votes.map((v) => ({ user: v.user, at: iso(v.at) })),
    created_at: iso(f.createdAt),
    expires_at: iso(f.expiresAt),
    history: history.map((h) => defined({ at: iso(h.at), event: h.event, by: h.by, detail: h.detail })),
    executions: executions(r),
  });
}
