/**
 * The approval card: exactly what will run, who asked, the rule, the votes, and the buttons
 * while it is pending. A final card shrinks to its outcome, one summary line and the people
 *. Pure builders; the lines are in card-lines.ts, the summaries in
 * card-summary.ts, the thread replies in card-replies.ts.
 */

import type { KnownBlock } from '@slack/types';
import { shortAddress } from '../../../domain/address.js';
import type { ViewState } from '../../../domain/approval.js';
import { isFinal, type RequestRecord } from '../../../domain/request.js';
import { outcomeMessage } from '../../../presenters/describe-error.js';
import { batchCardBlocks } from './batch-card.js';
import { buttons } from './card-buttons.js';
import {
  type CardControls,
  cardControlBlocks,
  committedBlocks,
  quorumReachBlocks,
  velocityBlocks,
} from './card-controls.js';
import { whatLines } from './card-lines.js';
import { seriesActionBlocks, seriesBlocks, seriesStatus } from './card-series.js';
import { summaryLine } from './card-summary.js';
import { coolingWait, pendingTimeBlocks, waitingBlocks } from './card-time.js';
import {
  type Blocks,
  code,
  context,
  esc,
  header,
  link,
  mrkdwn,
  screeningBlocks,
  section,
  slackDate,
  wordsBlock,
} from './common.js';
import { unknownOutcomeBlocks } from './not-paid.js';
import { requestRepeatLines } from './repeat-lines.js';

export { APPROVAL_ACTIONS } from './card-buttons.js';
export { CANCEL_WAITING_ACTION } from './card-time.js';

// Words first: the emoji only repeats them.
const STATE_LABEL: Record<ViewState, string> = {
  pending: ':hourglass_flowing_sand: Waiting for approval',
  approved: ':white_check_mark: Approved, queued to run',
  executing: ':gear: Executing',
  succeeded: ':white_check_mark: Succeeded',
  failed: ':x: Failed',
  unknown: ':rotating_light: OUTCOME UNKNOWN',
  denied: ':no_entry_sign: Denied',
  cancelled: ':heavy_multiplication_x: Cancelled',
  expired: ':alarm_clock: Expired without enough approvals',
};

const TITLE = {
  transfer: 'Transfer',
  offramp: 'Offramp',
  beneficiary: 'New beneficiary',
  'register-beneficiary': 'Existing beneficiaries',
  'address-book': 'Address book',
} as const;

const at = (record: RequestRecord) => (record.decidedAt ? ` at ${slackDate(record.decidedAt)}` : '');

function statusLine(record: RequestRecord, frozen: boolean): string {
  const label = STATE_LABEL[record.state];
  switch (record.state) {
    case 'pending':
      // A frozen card never invites a click that would be refused.
      return frozen ? ':octagonal_sign: On hold: Rampart is frozen, so this cannot be approved now' : label;
    case 'denied':
      return `${label} by <@${record.decidedBy}>${at(record)}`;
    case 'cancelled':
      return `${label} by ${record.decidedBy === record.sealed.requester ? 'the requester' : `<@${record.decidedBy}>`}`;
    case 'approved':
    case 'executing':
      return `${frozen && record.state === 'approved' ? ':octagonal_sign: Approved, held: Rampart is frozen' : (coolingWait(record) ?? label)}${record.decidedBy ? ` (quorum reached by <@${record.decidedBy}>${at(record)})` : ''}`;
    case 'succeeded': {
      const o = record.outcome ?? {};
      // A person's resolution of an unknown outcome says who recorded it.
      if (o.resolution)
        return `${label}: recorded as paid by <@${o.resolution.by}>${o.hash || o.reference || o.id ? ` ${code(o.hash ?? o.reference ?? o.id ?? '')}` : ''} (the outcome was unknown)`;
      if (o.link)
        return `${label}: ${link(o.link, 'view the transaction')}${o.hash ? ` ${code(shortAddress(o.hash))}` : ''}`;
      if (o.reference) return `${label}: reference ${code(o.reference)}`;
      return `${label}${o.id ? `: id ${code(o.id)}` : outcomeMessage(o) ? `: ${esc(outcomeMessage(o) ?? '')}` : ''}`;
    }
    case 'failed':
      if (record.outcome?.resolution)
        return `${label}: recorded as not paid by <@${record.outcome.resolution.by}> (the outcome was unknown)`;
      return `${label}: ${esc(outcomeMessage(record.outcome) ?? '')}`;
    case 'unknown':
      return `${label}: ${esc(outcomeMessage(record.outcome) ?? '')}`;
    default:
      return label;
  }
}

/** A request from the HTTP API names its key; the key's owner is the requester. */
const requestedBy = (f: RequestRecord['sealed']): string =>
  f.display.viaApi
    ? `*Requested via API key* *${esc(f.display.viaApi.keyName)}* (owner <@${f.requester}>)`
    : `*Requested by:* <@${f.requester}>`;

function votesLine(record: RequestRecord): string {
  // "approved by @x with passkey"; a step-up request says every vote needs one.
  const votes = record.votes.map((v) => `<@${v.user}> ✓${v.passkey ? ' with passkey' : ''}`).join(', ');
  const stepUp = record.sealed.stepUp ? ' (each with the approver’s passkey)' : '';
  return `*Approvals:* ${record.votes.length} of ${record.sealed.requiredApprovals}${stepUp}${votes ? `: ${votes}` : ''}`;
}

/** The requester's reason, and an approver's reason to deny or note, as they typed them (common.ts wordsBlock). */
function peoplesWords(record: RequestRecord): KnownBlock[] {
  const o = record.outcome;
  const notPaid = record.state === 'failed' && o?.resolution && !o.resolution.paid ? o.message : undefined;
  return [
    wordsBlock('Reason', record.sealed.reason),
    ...(record.state === 'denied' && record.denyReason ? [wordsBlock('Reason to deny', record.denyReason)] : []),
    ...(notPaid ? [wordsBlock('Why not paid', notPaid)] : []),
  ];
}

const hashLine = (record: RequestRecord) =>
  context(`Sealed request hash \`${record.sealed.hash}\` · what runs is exactly what is shown`);

/** Outcome, one summary line, the people; no line that was true only before. */
function finalCard(record: RequestRecord): KnownBlock[] {
  const f = record.sealed;
  // The final card keeps "with passkey" (the vote's proof), as the history does.
  const approvers = record.votes.map((v) => `<@${v.user}>${v.passkey ? ' with passkey' : ''}`).join(', ');
  return [
    header(`${TITLE[f.call.kind]} ${f.id}`),
    section(statusLine(record, false)),
    section(`${summaryLine(f)}\n*Requested by:* <@${f.requester}>${approvers ? `\n*Approved by:* ${approvers}` : ''}`),
    ...peoplesWords(record),
    hashLine(record),
  ];
}

export function requestCardBlocks(record: RequestRecord, controls: CardControls = {}): Blocks {
  const f = record.sealed;
  const frozen = controls.freeze !== undefined;
  // A batch's card is its own (kind, rows, total, preview, progress, Resume/Stop).
  if (f.display.batch)
    return batchCardBlocks(record, f.display.batch, frozen, buttons(record, frozen), controls.approvers);
  if (isFinal(record.state)) return [...finalCard(record), ...unknownOutcomeBlocks(record, controls.approvers)];
  const blocks: KnownBlock[] = [
    header(`${TITLE[f.call.kind]} ${f.id}`),
    section(seriesStatus(record) ?? statusLine(record, frozen)),
    ...seriesBlocks(record),
    ...pendingTimeBlocks(record),
    ...waitingBlocks(record),
    ...cardControlBlocks(record, controls),
    { type: 'section', text: mrkdwn(whatLines(f).join('\n')) },
    ...committedBlocks(record, controls.commitments),
    ...velocityBlocks(record), // after the money: a person reads the amount first
    ...screeningBlocks(f.display.screening),
    // Earlier payments this one repeats, while it can still be denied.
    ...(record.state === 'pending' && f.display.repeats?.length ? [section(requestRepeatLines(f).join('\n'))] : []),
    section(requestedBy(f)),
    ...peoplesWords(record),
    ...quorumReachBlocks(record, controls),
    section(
      `*Rule:* ${esc(f.rule)}\n${votesLine(record)}${record.state === 'pending' ? `\n*Expires:* ${slackDate(f.expiresAt)}` : ''}`,
    ),
    hashLine(record),
  ];
  if (record.state === 'pending') blocks.push(buttons(record, frozen, controls.commitments));
  blocks.push(...seriesActionBlocks(record, controls.seriesNext));
  return blocks;
}
