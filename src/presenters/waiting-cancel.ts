/**
 * What people read about cancelling inside an approval's wait, shared by Slack and the API: who
 * may cancel (domain/rules/time.ts), and the sentence for a refused cancel. Pure.
 */
import type { WaitingCancelCode } from '../domain/rules/time.js';

/** "any approver or the requester can cancel"; `requester` names them (Slack: a mention). */
export const whoCanCancelWaiting = (requester = 'the requester'): string => `any approver or ${requester} can cancel`;

export function waitingCancelText(code: WaitingCancelCode, requestId: string): string {
  switch (code) {
    case 'not_allowed_to_cancel':
      return `Only an approver or the requester can cancel ${requestId}; ask one of them.`;
    case 'already_started':
      return `${requestId} already started, so it can no longer be cancelled; its card shows the outcome.`;
    case 'not_waiting':
      return `${requestId} is not waiting to run, so there is nothing to cancel now; its card shows where it stands.`;
  }
}
