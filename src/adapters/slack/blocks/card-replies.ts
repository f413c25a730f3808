/**
 * The thread reply for a request's final state: success with the explorer link, failure, or
 * unknown with what to check (never advice to resubmit). Pure.
 */
import { shortAddress } from '../../../domain/address.js';
import type { RequestOutcome, RequestRecord } from '../../../domain/request.js';
import { outcomeMessage } from '../../../presenters/describe-error.js';
import { amountWords, destinationWords, summaryLine } from './card-summary.js';
import { code, esc, link, quoted } from './common.js';

/** Where to look when the service may or may not have acted. */
const WHAT_TO_CHECK: Record<RequestRecord['sealed']['call']['kind'], string> = {
  transfer:
    "Check the wallet's balances, the receiver's address on the chain's explorer and the service's records (ask its operators) to learn whether it went through.",
  offramp:
    "Check the wallet's balances and the service's records of payouts to this beneficiary (ask its operators) to learn whether it went through.",
  beneficiary: "Check the service's records (ask its operators) to learn whether the beneficiary was created.",
  // No service call: only a worker stopping mid-way leaves it unknown.
  'register-beneficiary': 'Check `/beneficiary list` to learn whether the beneficiaries were recorded.',
  'address-book': 'Check `/addresses` to learn whether the entries were recorded.',
};

/** An "entire balance" moved only what the approvers saw; anything newer stays. */
const sealedNote = (f: RequestRecord['sealed']): string =>
  f.display.entireBalance
    ? ` It moved ${esc(f.display.amountText ?? '')} ${esc(f.display.assetCode ?? '')}, the balance available at submission; anything that arrived since stays in ${esc(f.display.walletAlias ?? 'the wallet')}.`
    : '';

/** A try whose start no Redis replica confirmed was not sent; it is tried again. */
export const notSentReply = (record: RequestRecord): string =>
  `:hourglass_flowing_sand: ${record.sealed.id} was not sent: no Redis replica confirmed its start in time, so nothing reached the service. Rampart tries again shortly; it is still approved and will run at most once.`;

/** The money a reply is about: "25.00 USDC to 0x99ED…EdcF"; a batch's total; nothing for a destination. */
export function paidWords(f: RequestRecord['sealed']): string | undefined {
  const { kind } = f.call;
  if (kind !== 'transfer' && kind !== 'offramp') return undefined;
  return f.display.batch ? summaryLine(f) : `${amountWords(f)} to ${destinationWords(f)}`;
}

/** The thread reply for a final state: success with the explorer link, failure, or unknown. */
export function outcomeReply(record: RequestRecord): string {
  const f = record.sealed;
  const who = `<@${f.requester}>`;
  const o = record.outcome ?? {};
  const id1 = record.executionCount > 1 ? f.id : `${f.id}.1`;
  const words = paidWords(f);
  const paid = words ? `: ${words}` : '';
  const about = words ? ` (${words})` : '';
  if (o.resolution) return resolvedReply(record, o.resolution);
  switch (record.state) {
    case 'succeeded':
      if (o.link)
        return `:white_check_mark: ${who} ${f.id} succeeded${paid}. Transaction ${link(o.link, o.hash ? shortAddress(o.hash) : 'on the explorer')}.${sealedNote(f)}`;
      if (o.reference)
        return `:white_check_mark: ${who} ${f.id} succeeded${paid}. The service's reference: ${code(o.reference)}.${sealedNote(f)}`;
      return `:white_check_mark: ${who} ${f.id} succeeded${about}${o.id ? `: id ${code(o.id)}` : outcomeMessage(o) ? `: ${esc(outcomeMessage(o) ?? '')}` : ''}.`;
    case 'failed':
      return `:x: ${who} ${f.id} failed${about}: ${esc(outcomeMessage(o) ?? 'no message').replace(/\.$/, '')}. Nothing was retried; make a new request once the cause is fixed.`;
    case 'unknown':
      return `:rotating_light: ${who} *${f.id}: outcome unknown*${about}. ${esc(outcomeMessage(o) ?? '')}\n*Do not request it again:* it may already have gone through, and Rampart will not call the service for it again. ${WHAT_TO_CHECK[f.call.kind]} Once you know, an approver other than the requester records it with *Record outcome…* on the card (or \`/resolve ${id1}\`): paid, with the proof; not paid is only a proposal until a second approver confirms it.`;
    case 'denied':
      return `:no_entry_sign: ${who} ${f.id}${about} was denied by <@${record.decidedBy}>${record.denyReason ? `: ${quoted(record.denyReason)}` : '.'}`;
    case 'cancelled':
      // A cancel inside the wait may be any approver's: the thread names who.
      return record.decidedBy && record.decidedBy !== f.requester && record.runAt !== undefined
        ? `:heavy_multiplication_x: ${who} ${f.id}${about} was cancelled by <@${record.decidedBy}> before it ran; nothing was sent.`
        : `:heavy_multiplication_x: ${f.id} was cancelled by the requester.`;
    case 'expired':
      return `:alarm_clock: ${who} ${f.id}${about} expired without enough approvals. Make a new request if it is still needed.`;
    default:
      return `${f.id}: ${record.state}.`;
  }
}

/**
 * A person recorded what an unknown outcome was; the unknown reply above stays. Not paid names
 * both people and says only what was recorded: no advice to request it again.
 */
function resolvedReply(record: RequestRecord, r: NonNullable<RequestOutcome['resolution']>): string {
  const f = record.sealed;
  const o = record.outcome ?? {};
  const proof = o.hash ?? o.reference ?? o.id ?? o.message ?? '';
  if (r.paid)
    return `:white_check_mark: <@${f.requester}> ${f.id} was paid: <@${r.by}> recorded it (${code(proof)}) after its outcome was unknown. It counts as succeeded.`;
  const proposed = r.proposal
    ? `<@${r.proposal.by}> proposed it and <@${r.by}> confirmed it`
    : `<@${r.by}> recorded it`;
  return `:x: <@${f.requester}> ${f.id} was not paid: ${proposed} after its outcome was unknown: ${quoted(proof)}. It is recorded as failed and its amount no longer counts toward the velocity limit.`;
}
