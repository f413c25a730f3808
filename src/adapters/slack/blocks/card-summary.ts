/**
 * Issue 23 items 2-4: the one-line summaries an approver reads in three seconds — the
 * notification text (what a lock screen shows), the Approve confirmation and App Home's rows.
 * Money first, then chain, from → to, then the id and the requester. Pure.
 */
import { shortAddress } from '../../../domain/address.js';
import { CHAINS, type ChainId } from '../../../domain/assets.js';
import { batchStatusWords } from '../../../domain/batch-status.js';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord, RequestState, SealedRequest } from '../../../domain/request.js';
import { plural } from '../../../domain/words.js';
import { esc } from './common.js';

const chainName = (f: SealedRequest): string | undefined => {
  const c = f.display.chain;
  return c && c in CHAINS ? CHAINS[c as ChainId].name : undefined;
};

/** "25.00 USDC", or for a sealed "entire balance" the exact number with its label (issue 19). */
export function amountWords(f: SealedRequest): string {
  const d = f.display;
  const money = `${esc(d.amountText ?? '')} ${esc(d.assetCode ?? '')}`.trim();
  return d.entireBalance ? `all available at submission, ${money}` : money;
}

/** Where the money goes, short: an own wallet by name, an address shortened, a beneficiary's label. */
export function destinationWords(f: SealedRequest): string {
  const { call, display } = f;
  if (call.kind === 'transfer')
    return display.ownWallet ? `${esc(display.ownWallet)} (own wallet)` : shortAddress(call.body.receiver);
  if (call.kind === 'offramp') return esc(display.beneficiaryLabel ?? call.body.beneficiary_id);
  if (call.kind === 'beneficiary') return esc(display.beneficiaryLabel ?? '');
  return '';
}

/** "25.00 USDC (Base) ops → 0x99ED…EdcF"; for destinations, what is added. */
export function summaryLine(f: SealedRequest): string {
  const { call, display } = f;
  if (call.kind === 'beneficiary')
    return `new payout destination ${esc(display.beneficiaryLabel ?? '')} for ${esc(display.identityLabel ?? call.body.identity_id)}`;
  if (call.kind === 'register-beneficiary') {
    const n = call.body.beneficiaries.length;
    return `${plural(n, 'existing beneficiary', 'existing beneficiaries')}, registered as stated`;
  }
  const chain = chainName(f);
  const from = esc(display.walletAlias ?? call.body.wallet_id);
  // Issue 20: a batch is its rows' total from one wallet, never its first row's destination.
  if (display.batch)
    return `batch of ${display.batch.rows} ${display.batch.kind}, ${amountWords(f)}${chain ? ` (${chain})` : ''} in total from ${from}`;
  return `${amountWords(f)}${chain ? ` (${chain})` : ''} ${from} → ${destinationWords(f)}`;
}

const LEAD: Record<RequestState, string> = {
  pending: 'Approval needed',
  approved: 'Approved, queued to run',
  executing: 'Executing',
  succeeded: 'Succeeded',
  failed: 'Failed',
  unknown: 'OUTCOME UNKNOWN',
  denied: 'Denied',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

const OPEN: ReadonlySet<RequestState> = new Set(['pending', 'approved', 'executing']);

/** The message `text`: money first, then the id and who asked (issue 23 item 3). */
export function cardText(record: RequestRecord, freeze?: FreezeState): string {
  const f = record.frozen;
  const lead =
    freeze && OPEN.has(record.state) ? 'On hold, Rampart is frozen' : (batchStatusWords(record) ?? LEAD[record.state]);
  return `${lead}: ${summaryLine(f)} · ${f.id} · <@${f.requester}>`;
}

/** Issue 23 item 2: what runs, and whether this click makes it run. */
export function approveConfirmText(record: RequestRecord): string {
  const f = record.frozen;
  const { call, display } = f;
  const chain = chainName(f);
  let what: string;
  if (display.batch) {
    what = `Run ${summaryLine(f)}, ${display.batch.rows} rows one at a time?`;
  } else if (call.kind === 'transfer' || call.kind === 'offramp') {
    const verb = call.kind === 'transfer' ? 'Send' : 'Pay out';
    what = `${verb} ${amountWords(f)}${chain ? ` on ${chain}` : ''} from ${esc(display.walletAlias ?? call.body.wallet_id)} to ${destinationWords(f)}?`;
  } else if (call.kind === 'beneficiary') {
    what = `Add ${esc(display.beneficiaryLabel ?? '')}${display.holderName ? ` (${esc(display.holderName)})` : ''} as a payout destination for ${esc(display.identityLabel ?? call.body.identity_id)}?`;
  } else {
    what = `Register ${summaryLine(f)}?`;
  }
  const n = record.votes.length + 1;
  const m = f.requiredApprovals;
  const runs = call.kind === 'register-beneficiary' ? 'they are recorded now' : 'it runs now';
  const then =
    n >= m
      ? `${runs} and cannot be undone.`
      : `it runs only once ${plural(m - n, 'more approver agrees', 'more approvers agree')}.`;
  return `${what} Yours is approval ${n} of ${m}: ${then}`;
}

/** Issue 23 item 12: a button's spoken label says what it acts on. */
export const buttonLabel = (verb: string, f: SealedRequest): string => {
  const text = `${verb} ${f.id}: ${summaryLine(f)}`;
  return text.length > 75 ? `${text.slice(0, 74)}…` : text;
};
