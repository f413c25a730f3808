/**
 * The Record outcome form: the payment restated in full (amount, asset, chain, from wallet, the
 * whole destination with explorer links, who approved and when, the sealed hash), then the
 * evidence in the order it decides — the receiver's explorer page first, the balances after, said
 * honestly — then the choice. "Not paid" is never pre-selected. Pure builder.
 */

import type { View } from '@slack/types';
import type { OutcomeFacts } from '../../../app/outcome-facts.js';
import { formatNumber } from '../../../domain/amount.js';
import { explorerAddressUrl } from '../../../domain/assets.js';
import { executionName } from '../../../domain/batch-status.js';
import type { BalanceReading } from '../../../domain/outcome-evidence.js';
import { ageText, balanceVerdict } from '../../../domain/outcome-evidence.js';
import { fullAddress } from '../../../presenters/address.js';
import { type Blocks, code, context, esc, link, plain, section, slackDate } from './common.js';
import { proposalLine, proposalReason } from './not-paid.js';

export const RECORD_OUTCOME_CALLBACK = 'record_outcome';
export const OUTCOME_FIELDS = { verdict: 'verdict', proof: 'proof', why: 'why' } as const;

/** "2026-11-28 14:02 UTC": the explorer shows UTC, so the time to look after is said in UTC. */
export const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function money(f: OutcomeFacts, value: number | undefined): string {
  if (value === undefined || !f.asset) return '?';
  return `${formatNumber(value, f.asset.decimals)} ${f.asset.code}`;
}

function restated(f: OutcomeFacts): string {
  const d = f.record.sealed.display;
  const chain = f.asset ? CHAIN_OF(f) : '';
  const lines = [`*${executionName(f.record, f.executionId)}* · :rotating_light: outcome unknown`];
  if (f.amount !== undefined) lines.push(`*Amount:* ${money(f, f.amount)}${chain ? ` on ${chain}` : ''}`);
  const wallet =
    d.walletAddress && f.asset ? ` ${link(explorerAddressUrl(f.asset.chain, d.walletAddress), d.walletAddress)}` : '';
  if (f.walletId) lines.push(`*From:* ${esc(d.walletAlias ?? f.walletId)} (${code(f.walletId)})${wallet}`);
  if (f.call.kind === 'transfer' && f.asset)
    lines.push(
      `*To:* ${code(fullAddress(f.call.body.receiver))} — ${link(explorerAddressUrl(f.asset.chain, f.call.body.receiver), 'its page on the explorer')}`,
    );
  if (f.call.kind === 'offramp')
    lines.push(`*To beneficiary:* ${esc(d.beneficiaryLabel ?? '')} (${code(f.call.body.beneficiary_id)})`);
  const votes = f.record.votes.map((v) => `<@${v.user}> ${slackDate(v.at)}`).join(', ');
  if (votes) lines.push(`*Approved by:* ${votes}`);
  lines.push(`*Sealed hash:* ${code((f.execution.sealHash || f.record.sealed.hash).slice(0, 10))}`);
  return lines.join('\n');
}

const CHAIN_OF = (f: OutcomeFacts) => f.chainName ?? '';

function decides(f: OutcomeFacts): string {
  const from = esc(f.record.sealed.display.walletAlias ?? f.walletId);
  const after = f.startedAt === undefined ? '' : ` after ${utc(f.startedAt)}`;
  if (f.call.kind === 'transfer' && f.asset)
    return `*What decides it:* open ${link(explorerAddressUrl(f.asset.chain, f.call.body.receiver), 'the receiver’s page on the explorer')} and look for an incoming ${money(f, f.amount)} from ${from}${after}. If it is there, record paid with its transaction hash.`;
  if (f.call.kind === 'offramp')
    return `*What decides it:* ask the service's operators for a payout of ${money(f, f.amount)} from ${from}${after} to this beneficiary; its payout reference proves it was paid.`;
  return `*What decides it:* the service's records (ask its operators)${after ? ` for a call${after}` : ''}.`;
}

function readingLine(label: string, f: OutcomeFacts, r: BalanceReading | undefined, ref?: number): string {
  const v = r && f.asset ? r.available[f.asset.id] : undefined;
  if (!r || v === undefined) return `• ${label}: no reading`;
  const age = ref === undefined ? '' : ` (${ageText(ref - r.at)} before the start)`;
  return `• ${label}: ${money(f, v)} at ${utc(r.at)}${age}`;
}

function balances(f: OutcomeFacts): string {
  const id = f.asset?.id;
  const pick = (r: BalanceReading | undefined) => {
    const v = r && id ? r.available[id] : undefined;
    return r && v !== undefined ? { at: r.at, available: v } : undefined;
  };
  const verdict = balanceVerdict({
    amount: f.amount ?? 0,
    before: pick(f.before),
    atUnknown: pick(f.atUnknown),
    now: pick(f.now),
    others: f.others,
  });
  const says =
    verdict.kind === 'drop'
      ? `The balance dropped by ${money(f, Number(verdict.by.toFixed(f.asset?.decimals ?? 6)))} after the start: consistent with paid, if nothing else took money from the wallet. The explorer decides.`
      : verdict.kind === 'others'
        ? `Other Rampart payments on this wallet and asset started or finished between these readings (${verdict.others.join(', ')}), so the balances cannot tell.`
        : verdict.kind === 'no-before'
          ? 'Rampart held no reading from before the start, so the balances cannot tell.'
          : 'Cannot tell: deposits, fees and late debits hide a payment, so a missing drop never shows it was not paid.';
  return [
    '*Balances (they only help):*',
    readingLine('Before the start', f, f.before, f.startedAt),
    readingLine('When it became unknown', f, f.atUnknown),
    readingLine('Now', f, f.now),
    says,
  ].join('\n');
}

const proofLabel = (f: OutcomeFacts) =>
  f.call.kind === 'transfer'
    ? `Transaction hash on ${CHAIN_OF(f)} (if paid)`
    : 'The service’s payout reference (if paid)';

export function recordOutcomeModal(f: OutcomeFacts, channel: string | undefined, metadata: string): View {
  const p = f.execution.proposal;
  const blocks: Blocks = [
    section(restated(f)),
    section(decides(f)),
    section(balances(f)),
    ...(p ? [section(`${proposalLine(p)} Confirm it with the button on the card.`), proposalReason(p)] : []),
    ...(f.confirmNeedsPasskey
      ? [
          context(
            ':warning: Approved with passkeys: confirming not paid needs the confirmer’s passkey, which Rampart cannot ask for here yet, so a not-paid stays a proposal. Record paid with the proof if you find it.',
          ),
        ]
      : []),
    {
      type: 'input',
      block_id: OUTCOME_FIELDS.verdict,
      label: plain('What did you find?'),
      element: {
        type: 'radio_buttons',
        action_id: OUTCOME_FIELDS.verdict,
        options: [
          { text: plain('Paid: I found it (give the proof)'), value: 'paid' },
          { text: plain('Not paid: propose it (a second approver confirms)'), value: 'not-paid' },
        ],
      },
    },
    {
      type: 'input',
      block_id: OUTCOME_FIELDS.proof,
      optional: true,
      label: plain(proofLabel(f)),
      element: { type: 'plain_text_input', action_id: OUTCOME_FIELDS.proof },
    },
    {
      type: 'input',
      block_id: OUTCOME_FIELDS.why,
      optional: true,
      label: plain('Why not paid: what you checked (if not paid)'),
      element: { type: 'plain_text_input', action_id: OUTCOME_FIELDS.why, multiline: true, max_length: 300 },
    },
    context(channel ? 'The card and its thread say what you record.' : 'The card says what you record.'),
  ];
  return {
    type: 'modal',
    callback_id: RECORD_OUTCOME_CALLBACK,
    private_metadata: metadata,
    title: plain('Record outcome', 24),
    submit: plain('Record', 24),
    close: plain('Cancel', 24),
    blocks,
  };
}

/** The form after a recording: one sentence, and a Done. */
export const recordedModal = (text: string): View => ({
  type: 'modal',
  title: plain('Record outcome', 24),
  close: plain('Done', 24),
  blocks: [section(text)],
});
