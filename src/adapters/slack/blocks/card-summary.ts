/**
 * The one-line summaries an approver reads in three seconds — the
 * notification text (what a lock screen shows), the Approve confirmation and App Home's rows.
 * Money first, then chain, from → to, then the id and the requester. Pure.
 */

import type { ViewState } from '../../../domain/approval.js';
import { CHAINS, type ChainId } from '../../../domain/assets.js';
import { batchStatusWords } from '../../../domain/batch-status.js';
import type { CardCommitments } from '../../../domain/commitments.js';
import type { FreezeState } from '../../../domain/freeze-state.js';
import type { RequestRecord, SealedRequest } from '../../../domain/request.js';
import { durationWords, zonedTime } from '../../../domain/timing.js';
import { plural } from '../../../domain/words.js';
import { fullAddress, shortAddress } from '../../../presenters/address.js';
import { overCommittedWarning } from '../../../presenters/commitments.js';
import { whoCanCancelWaiting } from '../../../presenters/waiting-cancel.js';
import { esc, spokenLabel } from './common.js';

const chainName = (f: SealedRequest): string | undefined => {
  const c = f.display.chain;
  return c && c in CHAINS ? CHAINS[c as ChainId].name : undefined;
};

/** "25.00 USDC", or for a sealed "entire balance" the exact number with its label. */
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

/**
 * Where the money goes, whole, for the moment of deciding: the name beside the full address
 * grouped in fours (a lookalike matches exactly the short form's first 6 and last 4).
 */
export function destinationInFull(f: SealedRequest): string {
  const { call, display } = f;
  if (call.kind !== 'transfer') return destinationWords(f);
  const grouped = fullAddress(call.body.receiver);
  return display.ownWallet ? `${esc(display.ownWallet)} (own wallet) ${grouped}` : grouped;
}

/** "25.00 USDC (Base) ops → 0x99ED…EdcF"; for destinations, what is added. */
export function summaryLine(f: SealedRequest): string {
  const { call, display } = f;
  if (call.kind === 'beneficiary')
    return `new payout destination ${esc(display.beneficiaryLabel ?? '')} for ${esc(display.identityLabel ?? call.body.identity_id)}`;
  if (call.kind === 'address-book') {
    const n = call.body.entries.length;
    return `${plural(n, 'address-book entry', 'address-book entries')}: ${esc(call.body.entries.map((e) => e.name).join(', '))}`;
  }
  if (call.kind === 'register-beneficiary') {
    const n = call.body.beneficiaries.length;
    return `${plural(n, 'existing beneficiary', 'existing beneficiaries')}, registered as stated`;
  }
  const chain = chainName(f);
  const from = esc(display.walletAlias ?? call.body.wallet_id);
  // A batch is its rows' total from one wallet, never its first row's destination.
  if (display.batch)
    return `batch of ${display.batch.rows} ${display.batch.kind}, ${amountWords(f)}${chain ? ` (${chain})` : ''} in total from ${from}`;
  return `${amountWords(f)}${chain ? ` (${chain})` : ''} ${from} → ${destinationWords(f)}`;
}

const LEAD: Record<ViewState, string> = {
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

const OPEN: ReadonlySet<ViewState> = new Set(['pending', 'approved', 'executing']);

/** The message `text`: money first, then the id and who asked. */
export function cardText(record: RequestRecord, freeze?: FreezeState): string {
  const f = record.sealed;
  const lead =
    freeze && OPEN.has(record.state) ? 'On hold, Rampart is frozen' : (batchStatusWords(record) ?? LEAD[record.state]);
  return `${lead}: ${summaryLine(f)} · ${f.id} · <@${f.requester}>`;
}

/** What runs, and whether this click makes it run. */
/** `compact`: the shorter wording card.ts falls back to when the full one passes Slack's 300 characters. */
export function approveConfirmText(record: RequestRecord, commitments?: CardCommitments, compact = false): string {
  const f = record.sealed;
  const { call, display } = f;
  const chain = chainName(f);
  let what: string;
  if (display.batch) {
    what = `Run ${summaryLine(f)}, ${display.batch.rows} rows one at a time?`;
  } else if (call.kind === 'transfer' || call.kind === 'offramp') {
    const verb = call.kind === 'transfer' ? 'Send' : 'Pay out';
    what = `${verb} ${amountWords(f)}${chain ? ` on ${chain}` : ''} from ${esc(display.walletAlias ?? call.body.wallet_id)} to ${destinationInFull(f)}?`;
  } else if (call.kind === 'beneficiary') {
    what = `Add ${esc(display.beneficiaryLabel ?? '')}${display.holderName ? ` (${esc(display.holderName)})` : ''} as a payout destination for ${esc(display.identityLabel ?? call.body.identity_id)}?`;
  } else {
    what = `Register ${summaryLine(f)}?`;
  }
  // A timed request never says "runs now": when it runs, and who can cancel until then.
  const timed = confirmRunText(f);
  const short = overCommittedWarning(commitments, compact);
  if (short) what = `${what} ${esc(short)}`;
  const n = record.votes.length + 1;
  const m = f.requiredApprovals;
  // A step-up request counts only a passkey vote: the click opens the private passkey page.
  if (f.stepUp)
    return `${what} This click opens your passkey page and moves nothing. Approving there with your passkey is approval ${n} of ${m}${n >= m ? '; then it runs and cannot be undone.' : '.'}`;
  if (timed && n >= m) return `${what} ${compact ? '' : `Yours is approval ${n} of ${m}. `}${timed}`;
  if (compact)
    return `${what} Approval ${n} of ${m}: ${n >= m ? 'runs now, cannot be undone.' : `runs once ${m - n} more agree${m - n === 1 ? 's' : ''}.`}`;
  const runs = call.kind === 'register-beneficiary' ? 'they are recorded now' : 'it runs now';
  const then =
    n >= m
      ? `${runs} and cannot be undone.`
      : `it runs only once ${plural(m - n, 'more approver agrees', 'more approvers agree')}.`;
  return `${what} Yours is approval ${n} of ${m}: ${then}`;
}

/**
 * A button's spoken label says what it acts on, within Slack's 75 characters by being short,
 * never cut: "Approve R-1002: 29,500.25 USDT, ops to treasury". Shorter forms are tried in turn.
 */
export const buttonLabel = (verb: string, f: SealedRequest): string => {
  const { call, display } = f;
  const head = `${verb} ${f.id}`;
  const money = `${display.amountText ?? ''} ${display.assetCode ?? ''}`.trim();
  const from = display.walletAlias ?? ('wallet_id' in call.body ? call.body.wallet_id : '');
  const to =
    call.kind === 'transfer'
      ? (display.ownWallet ?? shortAddress(call.body.receiver))
      : (display.beneficiaryLabel ?? '');
  const candidates = display.batch
    ? [`${head}: ${display.batch.rows} ${display.batch.kind}, ${money} from ${from}`, `${head}: ${money} batch`]
    : call.kind === 'transfer' || call.kind === 'offramp'
      ? [`${head}: ${money}, ${from} to ${to}`, `${head}: ${money} to ${to}`, `${head}: ${money}`]
      : [
          `${head}: ${summaryLine(f)}`,
          `${head}: ${call.kind === 'beneficiary' ? 'new payout destination' : 'registration'}`,
        ];
  return spokenLabel(...candidates, head);
};

/** "runs 1 h after approval", "runs 2026-12-04 09:00 Africa/Lagos", or both; undefined without timing. */
export function plannedRun(f: SealedRequest): string | undefined {
  const t = f.timing;
  if (!t) return undefined;
  const after = t.delayMs === undefined ? undefined : `${durationWords(t.delayMs)} after approval`;
  if (t.notBefore === undefined) return after && `runs ${after}`;
  const set = `runs ${zonedTime(t.notBefore, t.zone ?? 'UTC')}`;
  return after ? `${set}, or ${after} if that is later` : set;
}

/** The Approve confirmation's last words on a timed request: never "runs now". */
export const confirmRunText = (f: SealedRequest): string | undefined => {
  const planned = plannedRun(f);
  return planned && `It ${planned}; ${whoCanCancelWaiting()} until then.`;
};
