/** What a person is told about a decision they tried to make: pure sentences from app/decide.ts outcomes. */
import type { Authorisation, Decided } from '../../app/decide.js';
import { slackDate } from './blocks/common.js';

export function lateClickText(d: Decided): string {
  const at = d.decidedAt ? ` at ${slackDate(d.decidedAt)}` : '';
  const by = d.decidedBy ? ` by <@${d.decidedBy}>` : '';
  switch (d.state) {
    case 'approved':
    case 'executing':
    case 'succeeded':
    case 'failed':
    case 'unknown':
      return `${d.requestId} was already approved${by}${at} (now ${d.state}).`;
    case 'denied':
      return `${d.requestId} was already denied${by}${at}.`;
    case 'cancelled':
      return `${d.requestId} was cancelled by the requester.`;
    case 'expired':
      return `${d.requestId} expired at ${slackDate(d.expiresAt)}; nothing can be decided on it any more.`;
    default:
      return `${d.requestId} is ${d.state ?? 'gone'}.`;
  }
}

export const refusalText = (a: Authorisation): string =>
  a.kind === 'not-approver'
    ? 'You are not an approver for this, so nothing changed.'
    : 'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.';
