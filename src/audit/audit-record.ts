/**
 * One request as the audit trail keeps it: who did what and when, the sealed call
 * and its hash, the outcome — with personal data masked as Slack masks it (domain/personal-data):
 * bank account numbers and IBANs to their last four digits, and any long number in free text.
 */
import { maskAccount, maskLongNumbers } from '../domain/personal-data.js';
import type { HistoryEntry, RequestRecord, ServiceCall } from '../domain/request.js';
import type { Every } from '../domain/schedule.js';
import { runAtOf } from '../domain/timing.js';

/** One batch row in the audit trail, beside its execution. */
export interface AuditRow {
  /** The spreadsheet row number (the header is row 1). */
  row: number;
  execution_id: string;
  destination: string;
  amount: string;
  reference: string | undefined;
  state: string;
  /** The transfer's hash or the offramp's reference at the service, once it ran. */
  proof: string | undefined;
}

export interface AuditEvent {
  at: string;
  event: string;
  by: string | undefined;
  detail: string | undefined;
  /** The execution (a batch's row) the event is about. */
  execution?: string;
}

export interface AuditRecord {
  id: string;
  kind: string;
  state: string;
  createdAt: string;
  expiresAt: string;
  requester: string;
  reason: string;
  rule: string;
  requiredApprovals: number;
  /** Short hash of the sealed call (the card shows its first ten characters). */
  callHash: string;
  /** The sealed call as sent, personal data masked. */
  call: ServiceCall;
  /** Who approved, in order. */
  approvals: { by: string; at: string }[];
  decidedBy: string | undefined;
  decidedAt: string | undefined;
  /** When it may start (a cancel window or a set time; docs/time.md); before approval, its set time. */
  runAt?: string;
  denyReason: string | undefined;
  outcome:
    | {
        hash?: string;
        link?: string;
        reference?: string;
        id?: string;
        message?: string;
        /**
         * An unknown outcome people resolved: who recorded it, when, paid or not; for not paid
         * the proposal the confirmer (`by`) confirmed; `via: 'cli'` when recorded from the CLI.
         */
        resolution?: {
          by: string;
          at: string;
          paid: boolean;
          proposal?: { id: string; by: string; at: string; why: string; via?: 'cli' };
          via?: 'cli';
        };
      }
    | undefined;
  history: AuditEvent[];
  /** A batch's rows, each with its execution's state and proof. */
  rows?: AuditRow[];
  /**
   * A series (recurring payouts): its sealed schedule and every run's time. Its `state` above is
   * its own (live, ended…); its history says each run created, each run skipped with why, and
   * who ended it.
   */
  schedule?: { runs: number; runDates: string[]; every: Every; at: string | undefined; zone: string };
  /** A series' run: run `k` of series `series`. */
  run?: { series: string; k: number };
}

const iso = (ms: number): string => new Date(ms).toISOString();
const text = (s: string | undefined): string | undefined => (s === undefined ? undefined : maskLongNumbers(s));
// Bank details the service receives whole; Slack shows only their last four digits.
const ACCOUNT_FIELDS = new Set(['account_number', 'iban', 'bvn']);

function maskCall(call: ServiceCall): ServiceCall {
  if (call.kind !== 'beneficiary') return call;
  const details: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.body.details)) {
    details[k] = typeof v === 'string' ? (ACCOUNT_FIELDS.has(k) ? maskAccount(v) : maskLongNumbers(v)) : v;
  }
  return { kind: 'beneficiary', body: { ...call.body, details } };
}

type Resolution = NonNullable<NonNullable<AuditRecord['outcome']>['resolution']>;

/** Times as ISO strings; the proposer's reason masked as any free text. */
function auditResolution(r: NonNullable<RequestRecord['outcome']>['resolution'] & object): Resolution {
  const { proposal, ...rest } = r;
  return {
    ...rest,
    at: iso(r.at),
    ...(proposal ? { proposal: { ...proposal, at: iso(proposal.at), why: maskLongNumbers(proposal.why) } } : {}),
  };
}

export function auditRecord(
  r: RequestRecord,
  history: readonly HistoryEntry[],
  rows?: readonly AuditRow[],
): AuditRecord {
  const { sealed } = r;
  const o = r.outcome;
  return {
    id: sealed.id,
    kind: sealed.call.kind,
    // A series' view reads "approved" while live and after its end: its own state says which.
    state: r.shape === 'series' ? r.approvalState : r.state,
    createdAt: iso(sealed.createdAt),
    expiresAt: iso(sealed.expiresAt),
    requester: sealed.requester,
    reason: maskLongNumbers(sealed.reason),
    rule: sealed.rule,
    requiredApprovals: sealed.requiredApprovals,
    callHash: sealed.hash,
    call: maskCall(sealed.call),
    approvals: r.votes.map((v) => ({ by: v.user, at: iso(v.at) })),
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt === undefined ? undefined : iso(r.decidedAt),
    ...(runAtOf(r) === undefined ? {} : { runAt: iso(runAtOf(r) as number) }),
    denyReason: text(r.denyReason),
    outcome: o && {
      ...(o.hash ? { hash: o.hash } : {}),
      ...(o.link ? { link: o.link } : {}),
      ...(o.reference ? { reference: o.reference } : {}),
      ...(o.id ? { id: o.id } : {}),
      ...(o.message ? { message: maskLongNumbers(o.message) } : {}),
      ...(o.resolution ? { resolution: auditResolution(o.resolution) } : {}),
    },
    history: history.map((e) => ({
      at: iso(e.at),
      event: e.event,
      by: e.by,
      detail: text(e.detail),
      ...(e.execution ? { execution: e.execution } : {}),
    })),
    ...(rows ? { rows: [...rows] } : {}),
    ...(sealed.schedule && r.shape === 'series'
      ? {
          schedule: {
            runs: sealed.schedule.runs.length,
            runDates: sealed.schedule.runs.map(iso),
            every: sealed.schedule.every,
            at: sealed.schedule.at,
            zone: sealed.schedule.zone,
          },
        }
      : {}),
    ...(r.run ? { run: r.run } : {}),
  };
}
