/**
 * The export's two formats. JSON Lines: one request per line with its whole history. CSV: one
 * row per history event, the request's columns repeated, so a spreadsheet filters either way;
 * a batch adds one line per row (event `row`), its destination and amount in place of
 * the total's.
 */
import { csvCell } from '../domain/csv-safe.js';
import type { AuditRecord } from './audit-record.js';

export const AUDIT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export const jsonLine = (r: AuditRecord): string => `${JSON.stringify(r)}\n`;

export const CSV_COLUMNS = [
  'request_id',
  'kind',
  'state',
  'created_at',
  'requester',
  'reason',
  'rule',
  'call_hash',
  'wallet_id',
  'asset',
  'amount',
  'destination',
  'event_at',
  'event',
  'event_by',
  'event_detail',
  'outcome_hash',
  'outcome_link',
  'outcome_reference',
  'outcome_id',
  'outcome_message',
  'execution_id',
  'row',
  'reference',
] as const;

/** The audit export's cells: the one shared guard (domain/csv-safe.ts). */
export const csvField = csvCell;

export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\n`;

function destination(r: AuditRecord): string {
  const { call } = r;
  if (call.kind === 'transfer') return call.body.receiver;
  if (call.kind === 'offramp') return `beneficiary ${call.body.beneficiary_id}`;
  if (call.kind === 'register-beneficiary')
    return call.body.beneficiaries
      .map((b) => `beneficiary ${b.beneficiary_id} account ••••${b.account_last4}`)
      .join('; ');
  if (call.kind === 'address-book')
    return call.body.entries.map((e) => `address book ${e.name} ${e.chain} ${e.address}`).join('; ');
  const d = call.body.details;
  const account = d.account_number ?? d.iban;
  return `identity ${call.body.identity_id}${typeof account === 'string' ? ` account ${account}` : ''}`;
}

export function csvRows(r: AuditRecord): string {
  const { call } = r;
  const money = call.kind === 'transfer' || call.kind === 'offramp' ? call.body : undefined;
  const fixed = [
    r.id,
    r.kind,
    r.state,
    r.createdAt,
    r.requester,
    r.reason,
    r.rule,
    r.callHash,
    money?.wallet_id,
    money?.asset,
    money?.amount,
    destination(r),
  ];
  const outcome = [r.outcome?.hash, r.outcome?.link, r.outcome?.reference, r.outcome?.id, r.outcome?.message];
  const events = r.history.map((e) => [...fixed, e.at, e.event, e.by, e.detail, ...outcome, e.execution, '', '']);
  const rows = (r.rows ?? []).map((row) => {
    const head = [...fixed.slice(0, 10), row.amount, row.destination];
    const proof = r.kind === 'transfer' ? [row.proof, '', ''] : ['', '', row.proof];
    return [...head, '', 'row', '', row.state, ...proof, '', '', row.execution_id, row.row, row.reference];
  });
  return [...events, ...rows].map((line) => `${line.map(csvField).join(',')}\n`).join('');
}
