/**
 * The one sentence a /resolve or `rampart resolve` gets (issue 19), for Slack and the terminal
 * alike; `who` writes a person as the edge shows people (a mention, or the plain id).
 */
import type { ResolveOutcome } from './resolve.js';

const STATE_WORDS: Record<string, string> = {
  queued: 'has not been sent yet',
  executing: 'is being sent right now',
  succeeded: 'already succeeded',
  failed: 'already failed',
  cancelled: 'was cancelled',
};

export function resolveText(o: ResolveOutcome, who: (user: string) => string): string {
  switch (o.kind) {
    case 'not-approver':
      return 'Only approvers can resolve an unknown outcome, so nothing changed.';
    case 'approver-check-failed':
      return 'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.';
    case 'missing':
      return `There is no request ${o.id}; check the id on its card (e.g. R-1234.1).`;
    case 'which':
      return `${o.approvalId} has ${o.count} executions; name the one to resolve, e.g. ${o.approvalId}.1.`;
    case 'self':
      return `You requested ${o.executionId}, so another approver must resolve it; nothing changed.`;
    case 'not-unknown':
      return `${o.executionId} ${STATE_WORDS[o.state ?? ''] ?? 'is gone'}; only an outcome-unknown payment can be resolved, so nothing changed.`;
    case 'resolved': {
      const requester = o.record ? who(o.record.frozen.requester) : 'the requester';
      return o.paid
        ? `${o.executionId} is recorded as paid (succeeded); its velocity amount stays counted. The thread and card say so.`
        : `${o.executionId} is recorded as not paid (failed); its velocity amount is given back and ${requester} may request it again.`;
    }
  }
}
