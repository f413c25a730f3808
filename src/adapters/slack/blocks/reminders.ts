/**
 * The velocity and approval direct messages: reminders to approvers, escalation, and the requester's messages at
 * each decision and outcome. Pure; the outcome texts reuse the thread replies (link, reason, or
 * what to check — never advice to resubmit an unknown).
 */
import type { RequestRecord } from '../../../domain/request.js';
import type { Milestone } from '../../jobs/notifier.js';
import { outcomeReply } from './card-replies.js';
import { summaryLine } from './card-summary.js';
import { link, slackDate } from './common.js';

// The money first, a sealed entire balance with its label.
const what = (r: RequestRecord): string => summaryLine(r.sealed);

export const reminderText = (r: RequestRecord, permalink: string, n: number): string =>
  `:hourglass_flowing_sand: Reminder ${n}: ${r.sealed.id} (${what(r)}, asked by <@${r.sealed.requester}>) still needs your decision; it expires ${slackDate(r.sealed.expiresAt)}. ${link(permalink, 'Open the card')}`;

export const escalationText = (r: RequestRecord, permalink: string): string =>
  `:mega: Escalation: ${r.sealed.id} (${what(r)}, asked by <@${r.sealed.requester}>) has been waiting since ${slackDate(r.sealed.createdAt)} with ${r.votes.length} of ${r.sealed.requiredApprovals} approvals. ${link(permalink, 'Open the card')}`;

/** The requester's confirmation, money first: "Requested: 25.00 USDC (Base) ops → 0x99ED…EdcF (R-1001) — waiting for approval". */
export const requestedText = (r: RequestRecord, permalink: string): string =>
  `Requested: ${what(r)} (${r.sealed.id}) — waiting for approval: ${link(permalink, 'see the card')}. You will be mentioned in its thread when it is decided.`;

/** undefined: nothing to tell the requester at this state (they cancelled it themselves, say). */
export function requesterText(r: RequestRecord, permalink: string, m: Milestone): string | undefined {
  const card = link(permalink, 'the card');
  if (m.kind === 'vote')
    return `:ballot_box_with_check: <@${m.by}> approved your ${r.sealed.id}, ${what(r)} (${r.votes.length} of ${r.sealed.requiredApprovals}); see ${card}.`;
  switch (r.state) {
    case 'approved':
      return `:white_check_mark: Your ${r.sealed.id}, ${what(r)}, was approved by <@${r.decidedBy ?? '?'}> and is queued to run; see ${card}.`;
    case 'cancelled':
      // The requester's own cancel needs no message; a cancel by an unfreeze does.
      return r.decidedBy === r.sealed.requester ? undefined : `${outcomeReply(r)} See ${card}.`;
    case 'denied':
    case 'expired':
    case 'succeeded':
    case 'failed':
    case 'unknown':
      return `${outcomeReply(r)} (${card})`;
    default:
      return undefined;
  }
}
