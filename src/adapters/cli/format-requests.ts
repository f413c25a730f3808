/**
 * What `rampart requests` and `requests show` print: pure functions from stored records to text
 * or to the values --json prints. A beneficiary's bank details are never shown whole.
 */

import { formatNumber } from '../../domain/amount.js';
import { assetInfo, isAssetId } from '../../domain/assets.js';
import { maskTail } from '../../domain/personal-data.js';
import type { HistoryEntry, RequestRecord } from '../../domain/request.js';
import { runAtOf } from '../../domain/timing.js';
import { outcomeMessage } from '../../presenters/describe-error.js';
import { walletName } from './format-service.js';
import { keyValues, table } from './table.js';

/** "2026-11-21 22:10:04Z": sortable, unambiguous at any hour in any zone. */
export const formatTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

const assetCode = (asset: string): string => (isAssetId(asset) ? assetInfo(asset).code : asset);

export interface RequestSummary {
  id: string;
  kind: string;
  state: string;
  /** The wire amount; -1 is the entire available balance (spec 4.2). */
  amount: number | undefined;
  amountText: string | undefined;
  asset: string | undefined;
  walletId: string | undefined;
  wallet: string | undefined;
  to: string;
  requester: string;
  reason: string;
  createdAt: string;
  expiresAt: string;
  /** When it may start (a cancel window or a set time); before approval, the time it was set for. */
  runAt?: string;
}

export function summarise(r: RequestRecord): RequestSummary {
  const { sealed } = r;
  const { call, display } = sealed;
  const base = {
    id: sealed.id,
    kind: call.kind,
    state: r.state,
    requester: sealed.requester,
    reason: sealed.reason,
    createdAt: new Date(sealed.createdAt).toISOString(),
    expiresAt: new Date(sealed.expiresAt).toISOString(),
    ...(runAtOf(r) === undefined ? {} : { runAt: new Date(runAtOf(r) as number).toISOString() }),
  };
  if (call.kind === 'register-beneficiary') {
    const rows = call.body.beneficiaries;
    const to = `${rows.length} existing beneficiar${rows.length === 1 ? 'y' : 'ies'}, as stated (listed below)`;
    const none = { amount: undefined, amountText: undefined, asset: undefined, walletId: undefined, wallet: undefined };
    return { ...base, ...none, to };
  }
  if (call.kind === 'address-book') {
    const to = call.body.entries.map((e) => `${e.name} ${e.address} (${e.chain})`).join('; ');
    const none = { amount: undefined, amountText: undefined, asset: undefined, walletId: undefined, wallet: undefined };
    return { ...base, ...none, to: `address book: ${to}` };
  }
  if (call.kind === 'beneficiary') {
    const account = call.body.details.account_number;
    const label = display.beneficiaryLabel ?? (typeof account === 'string' ? `account ${maskTail(account)}` : '');
    const to = display.identityLabel ? `${label} for ${display.identityLabel}` : label;
    const none = { amount: undefined, amountText: undefined, asset: undefined, walletId: undefined, wallet: undefined };
    return { ...base, ...none, to };
  }
  const { amount, asset, wallet_id } = call.body;
  const amountText = amount === -1 ? 'entire balance' : formatNumber(amount, assetInfo(asset).decimals);
  // A batch's call carries its total; its destinations are its rows.
  const rows = display.batch?.rows;
  const to =
    rows !== undefined
      ? `${rows} rows (see its executions)`
      : call.kind === 'transfer'
        ? call.body.receiver
        : `${display.beneficiaryLabel ?? call.body.beneficiary_id}${display.holderName ? ` (${display.holderName})` : ''}`;
  return {
    ...base,
    amount,
    amountText,
    asset,
    walletId: wallet_id,
    wallet: walletName(display.walletAlias, wallet_id),
    to,
  };
}

export function requestsText(records: readonly RequestRecord[]): string {
  if (records.length === 0) return 'No requests.';
  const rows = records.map((r) => {
    const s = summarise(r);
    // An approved payment waiting for its time says when it runs.
    const state = r.state === 'approved' && r.runAt !== undefined ? `approved, runs ${formatTime(r.runAt)}` : s.state;
    return [s.id, s.kind, state, s.amountText, s.asset, s.requester, formatTime(r.sealed.createdAt)];
  });
  const columns = [
    { title: 'ID' },
    { title: 'Kind' },
    { title: 'State' },
    { title: 'Amount', align: 'right' },
    { title: 'Asset' },
    { title: 'Requester' },
    { title: 'Created' },
  ] as const;
  return table(columns, rows);
}

export function requestDetail(r: RequestRecord, history: readonly HistoryEntry[]) {
  return {
    ...summarise(r),
    rule: r.sealed.rule,
    requiredApprovals: r.sealed.requiredApprovals,
    hash: r.sealed.hash,
    votes: r.votes.map((v) => ({ user: v.user, at: new Date(v.at).toISOString() })),
    decidedBy: r.decidedBy,
    decidedAt: iso(r.decidedAt),
    denyReason: r.denyReason,
    outcome: r.outcome,
    ...(r.sealed.call.kind === 'register-beneficiary' ? { beneficiaries: r.sealed.call.body.beneficiaries } : {}),
    history: history.map((h) => ({ at: new Date(h.at).toISOString(), event: h.event, by: h.by, detail: h.detail })),
  };
}

/** Every row of a registration, one per line (the card shows only what fits). */
function statedRows(r: RequestRecord): string {
  const { call } = r.sealed;
  if (call.kind !== 'register-beneficiary') return '';
  const rows = call.body.beneficiaries.map((b) => [
    b.beneficiary_id,
    b.identity_id,
    b.label,
    b.bank_name,
    `••••${b.account_last4}`,
  ]);
  const columns = [
    { title: 'Beneficiary' },
    { title: 'Identity' },
    { title: 'Label' },
    { title: 'Bank' },
    { title: 'Account' },
  ];
  return `\nBeneficiaries, as stated by the requester\n${table(columns, rows)}\n`;
}

export function requestShowText(r: RequestRecord, history: readonly HistoryEntry[]): string {
  const s = summarise(r);
  const o = r.outcome;
  const head = keyValues([
    ['Request', s.id],
    ['Kind', s.kind],
    ['State', s.state],
    ...(s.amountText === undefined || s.asset === undefined
      ? []
      : ([['Amount', `${s.amountText} ${assetCode(s.asset)} (${s.asset})`]] as const)),
    ...(s.wallet === undefined ? [] : ([['From', s.wallet]] as const)),
    ['To', s.to],
    ['Requester', s.requester],
    ['Reason', s.reason],
    ['Rule', r.sealed.rule],
    ['Approvals', `${r.votes.length} of ${r.sealed.requiredApprovals}`],
    ['Created', formatTime(r.sealed.createdAt)],
    ['Expires', formatTime(r.sealed.expiresAt)],
    ['Call hash', r.sealed.hash],
    ...(o?.hash ? ([['Tx hash', o.hash]] as const) : []),
    ...(o?.link ? ([['Explorer', o.link]] as const) : []),
    ...(o?.reference ? ([['Reference', o.reference]] as const) : []),
    ...(outcomeMessage(o) ? ([['Outcome', outcomeMessage(o) ?? '']] as const) : []),
  ]);
  const rows = history.map((h) => [formatTime(h.at), h.event, h.by, h.detail]);
  const events = table([{ title: 'When' }, { title: 'Event' }, { title: 'By' }, { title: 'Detail' }], rows);
  return `${head}\n${statedRows(r)}\nHistory\n${events}`;
}
