/**
 * The approval card: exactly what will run, who asked, the rule, the votes, and the buttons
 * while it is pending. Also the thread replies that report the outcome. Pure builders.
 */

import type { KnownBlock } from '@slack/types';
import { shortAddress } from '../../domain/address.js';
import { CHAINS, type ChainId, explorerAddressUrl } from '../../domain/assets.js';
import type { Destination, HolderSource } from '../../domain/destination.js';
import type { RequestRecord, RequestState } from '../../domain/request.js';
import { outcomeMessage } from '../describe-error.js';
import { type CardControls, cardControlBlocks } from './card-controls.js';
import { registrationLines, statedPayeeLine } from './card-registration.js';
import {
  type Blocks,
  code,
  context,
  esc,
  header,
  link,
  mrkdwn,
  plain,
  section,
  slackDate,
  withSandboxNote,
} from './common.js';

export const APPROVAL_ACTIONS = { approve: 'request_approve', deny: 'request_deny', cancel: 'request_cancel' } as const;

const STATE_LABEL: Record<RequestState, string> = {
  pending: ':hourglass_flowing_sand: Waiting for approval',
  approved: ':white_check_mark: Approved, queued to run',
  executing: ':gear: Executing',
  succeeded: ':white_check_mark: Succeeded',
  failed: ':x: Failed',
  unknown: ':rotating_light: OUTCOME UNKNOWN',
  denied: ':no_entry_sign: Denied',
  cancelled: ':heavy_multiplication_x: Cancelled by the requester',
  expired: ':alarm_clock: Expired without enough approvals',
};

const TITLE = {
  transfer: 'Transfer',
  offramp: 'Offramp',
  beneficiary: 'New beneficiary',
  'register-beneficiary': 'Existing beneficiaries',
} as const;

function chainOf(record: RequestRecord): ChainId | undefined {
  const c = record.frozen.display.chain;
  return c && c in CHAINS ? (c as ChainId) : undefined;
}

/** Only a name the service's lookup returned is called verified (issue 9 item 6, invariant 7). */
function holderLine(name: string, source: HolderSource | undefined, requester: string): string {
  if (source === 'lookup') return `*Holder (verified by the bank lookup):* ${esc(name)}`;
  if (source === 'typed') return `*Holder:* ${esc(name)} _(as typed by <@${requester}>, not verified)_`;
  return `*Holder:* ${esc(name)}`;
}

/** Enough of a cross-border destination to check it: country, bank codes, masked account. */
function destinationLine(d: Destination): string {
  const parts = [
    d.country ? `*Country:* ${esc(d.country)}` : '',
    ...d.codes.map((c) => `*${esc(c.label)}:* ${code(c.value)}`),
    d.account ? `*${esc(d.account.label)}:* ${code(d.account.masked)}` : '',
  ].filter(Boolean);
  return parts.join('  ·  ');
}

function whatLines(record: RequestRecord): string[] {
  const { call, display } = record.frozen;
  const chain = chainOf(record);
  const lines: string[] = [];
  if (call.kind === 'register-beneficiary') return registrationLines(record);
  if (call.kind === 'beneficiary') {
    lines.push(`*Identity:* ${esc(display.identityLabel ?? call.body.identity_id)}`);
    lines.push(`*Bank account:* ${esc(display.beneficiaryLabel ?? '')}`);
    if (display.holderName) lines.push(holderLine(display.holderName, display.holderSource, record.frozen.requester));
    if (display.destination) lines.push(destinationLine(display.destination));
    return lines;
  }
  lines.push(
    `*Amount:* ${call.body.amount === -1 ? '*entire available balance (amount not fixed)*' : `*${esc(display.amountText ?? String(call.body.amount))}*`} ${esc(display.assetCode ?? '')}${display.entireBalance ? ' (entire available balance at submission)' : ''}  ·  *Chain:* ${chain ? CHAINS[chain].name : call.body.asset}  (\`${call.body.asset}\`)`,
  );
  const from =
    display.walletAddress && chain
      ? ` ${link(explorerAddressUrl(chain, display.walletAddress), shortAddress(display.walletAddress))}`
      : '';
  lines.push(`*From:* ${esc(display.walletAlias ?? call.body.wallet_id)}${from}`);
  if (call.kind === 'transfer') {
    const to = chain
      ? link(explorerAddressUrl(chain, call.body.receiver), call.body.receiver)
      : `${code(call.body.receiver)}`;
    lines.push(`*To:* ${to}`);
    if (display.newReceiver)
      lines.push(
        display.viaApi
          ? // issue 21: a key created with --allow-new-destinations; said in bold on the card.
            ':warning: *new destination via API*: Rampart has never paid this address before. Check it with the payee.'
          : ':warning: *Rampart has never paid this address before.* Check it with the payee.',
      );
  } else {
    const label = display.beneficiaryLabel ?? call.body.beneficiary_id;
    lines.push(`*To beneficiary:* ${esc(label)}${display.holderName ? ` · holder ${esc(display.holderName)}` : ''}`);
    const stated = statedPayeeLine(display);
    if (stated) lines.push(stated);
  }
  if (display.availableBefore)
    lines.push(
      `*Available:* ${esc(display.availableBefore)} → ${esc(display.availableAfter ?? '?')} ${esc(display.assetCode ?? '')}`,
    );
  return lines;
}

function votesLine(record: RequestRecord): string {
  const votes = record.votes.map((v) => `<@${v.user}> ✓`).join(', ');
  return `*Approvals:* ${record.votes.length} of ${record.frozen.requiredApprovals}${votes ? `: ${votes}` : ''}`;
}

function statusLine(record: RequestRecord): string {
  const label = STATE_LABEL[record.state];
  const at = record.decidedAt ? ` at ${slackDate(record.decidedAt, '{time}')}` : '';
  switch (record.state) {
    case 'denied':
      return `${label} by <@${record.decidedBy}>${at}: ${esc(record.denyReason ?? '')}`;
    case 'approved':
    case 'executing':
      return `${label}${record.decidedBy ? ` (quorum reached by <@${record.decidedBy}>${at})` : ''}`;
    case 'succeeded': {
      const o = record.outcome ?? {};
      if (o.link)
        return `${label}: ${link(o.link, 'view the transaction')}${o.hash ? ` ${code(shortAddress(o.hash))}` : ''}`;
      if (o.reference) return `${label}: reference ${code(o.reference)}`;
      return `${label}${o.id ? `: id ${code(o.id)}` : outcomeMessage(o) ? `: ${esc(outcomeMessage(o) ?? '')}` : ''}`;
    }
    case 'failed':
    case 'unknown':
      return `${label}: ${esc(outcomeMessage(record.outcome) ?? '')}`;
    default:
      return label;
  }
}

/** Issue 21: a request from the HTTP API names its key; the key's owner is the requester. */
const requestedBy = (f: RequestRecord['frozen']): string =>
  f.display.viaApi
    ? `*Requested via API key* *${esc(f.display.viaApi.keyName)}* (owner <@${f.requester}>)`
    : `*Requested by:* <@${f.requester}>`;

export function requestCardBlocks(record: RequestRecord, sandbox: boolean, controls: CardControls = {}): Blocks {
  const f = record.frozen;
  const blocks: KnownBlock[] = [
    header(`${TITLE[f.call.kind]} ${f.id}`),
    section(statusLine(record)),
    ...cardControlBlocks(record, controls), // issue 13
    { type: 'section', text: mrkdwn(whatLines(record).join('\n')) },
    section(`${requestedBy(f)}  ·  *Reason:* ${esc(f.reason)}`),
    section(
      `*Rule:* ${esc(f.rule)}\n${votesLine(record)}${record.state === 'pending' ? `\n*Expires:* ${slackDate(f.expiresAt)}` : ''}`,
    ),
    context(`Frozen request hash \`${f.hash}\` · what runs is exactly what is shown`),
  ];
  if (record.state === 'pending') {
    blocks.push({
      type: 'actions',
      block_id: `approval-${f.id}`,
      elements: [
        {
          type: 'button',
          action_id: APPROVAL_ACTIONS.approve,
          style: 'primary',
          text: plain('Approve', 75),
          value: f.id,
          confirm: {
            title: plain('Approve this request?', 100),
            text: mrkdwn(
              `${TITLE[f.call.kind]} ${f.id}: ${f.call.kind === 'beneficiary' ? 'add this payout destination' : f.call.kind === 'register-beneficiary' ? 'register these payout destinations as stated' : `${f.display.amountText ?? ''} ${f.display.assetCode ?? ''}${f.display.entireBalance ? ' (entire available balance at submission)' : ''}`}. This cannot be undone once it runs.`,
            ),
            confirm: plain('Approve', 30),
            deny: plain('Back', 30),
          },
        },
        { type: 'button', action_id: APPROVAL_ACTIONS.deny, style: 'danger', text: plain('Deny', 75), value: f.id },
        { type: 'button', action_id: APPROVAL_ACTIONS.cancel, text: plain('Cancel (requester)', 75), value: f.id },
      ],
    });
  }
  return withSandboxNote(blocks, sandbox);
}

export const cardText = (record: RequestRecord): string =>
  `${TITLE[record.frozen.call.kind]} ${record.frozen.id}: ${STATE_LABEL[record.state].replace(/:[a-z_]+: /, '')}`;

/** Where to look when the service may or may not have acted (issue 9 item 1). */
const WHAT_TO_CHECK: Record<RequestRecord['frozen']['call']['kind'], string> = {
  transfer:
    "Check the wallet's balances, the receiver's address on the chain's explorer and the service's records (ask its operators) to learn whether it went through.",
  offramp:
    "Check the wallet's balances and the service's records of payouts to this beneficiary (ask its operators) to learn whether it went through.",
  beneficiary: "Check the service's records (ask its operators) to learn whether the beneficiary was created.",
  // No service call: only a worker stopping mid-way leaves it unknown.
  'register-beneficiary': 'Check `/beneficiary list` to learn whether the beneficiaries were recorded.',
};

/** Issue 19: an "entire balance" moved only what the approvers saw; anything newer stays. */
const sealedNote = (f: RequestRecord['frozen']): string =>
  f.display.entireBalance
    ? ` It moved ${esc(f.display.amountText ?? '')} ${esc(f.display.assetCode ?? '')}, the balance available at submission; anything that arrived since stays in ${esc(f.display.walletAlias ?? 'the wallet')}.`
    : '';

/** The thread reply for a final state: success with the explorer link, failure, or unknown. */
export function outcomeReply(record: RequestRecord): string {
  const f = record.frozen;
  const who = `<@${f.requester}>`;
  const o = record.outcome ?? {};
  switch (record.state) {
    case 'succeeded':
      if (o.link)
        return `:white_check_mark: ${who} ${f.id} succeeded. Transaction ${link(o.link, o.hash ? shortAddress(o.hash) : 'on the explorer')}.${sealedNote(f)}`;
      if (o.reference)
        return `:white_check_mark: ${who} ${f.id} succeeded. The service's reference: ${code(o.reference)}.${sealedNote(f)}`;
      return `:white_check_mark: ${who} ${f.id} succeeded${o.id ? `: id ${code(o.id)}` : outcomeMessage(o) ? `: ${esc(outcomeMessage(o) ?? '')}` : ''}.`;
    case 'failed':
      return `:x: ${who} ${f.id} failed: ${esc(outcomeMessage(o) ?? 'no message').replace(/\.$/, '')}. Nothing was retried; make a new request once the cause is fixed.`;
    case 'unknown':
      return `:rotating_light: ${who} *${f.id}: outcome unknown.* ${esc(outcomeMessage(o) ?? '')}\n*Do not request it again:* it may already have gone through, and Rampart will not call the service for it again. ${WHAT_TO_CHECK[f.call.kind]}`;
    case 'denied':
      return `:no_entry_sign: ${who} ${f.id} was denied by <@${record.decidedBy}>: ${esc(record.denyReason ?? '')}`;
    case 'cancelled':
      return `:heavy_multiplication_x: ${f.id} was cancelled by the requester.`;
    case 'expired':
      return `:alarm_clock: ${who} ${f.id} expired without enough approvals. Make a new request if it is still needed.`;
    default:
      return `${f.id}: ${STATE_LABEL[record.state]}`;
  }
}
