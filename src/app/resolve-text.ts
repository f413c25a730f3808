/**
 * The one sentence a /resolve, its form, a Confirm click or `rampart resolve` gets, for Slack and
 * the terminal alike; `who` writes a person as the edge shows people (a mention, or the plain id).
 * It says plainly what was recorded; it never tells anyone to request a payment again.
 */
import type { ResolveOutcome } from './resolve.js';

const STATE_WORDS: Record<string, string> = {
  queued: 'has not been sent yet',
  executing: 'is being sent right now',
  succeeded: 'is already recorded as succeeded',
  failed: 'is already recorded as failed',
  cancelled: 'was cancelled',
};

const REFUSALS: Record<string, (id: string, by: string) => string> = {
  cli: (id) =>
    `Confirming not-paid is done on ${id}'s card in Slack by a second approver, never from the terminal; nothing changed.`,
  proposer: (id) => `You proposed not-paid for ${id}, so a different approver must confirm it; nothing changed.`,
  requester: (id) => `You requested ${id}, so two other approvers must settle it; nothing changed.`,
  stale: (id, by) =>
    `The not-paid proposal for ${id} you saw is no longer the one pending${by ? ` (${by} proposed another)` : ''}; read the card again. Nothing changed.`,
  'no-proposal': (id) => `Nobody has proposed not-paid for ${id}, so there is nothing to confirm; nothing changed.`,
  'no-confirmation': (id) => `${id} needs a second approver's confirmation on its card; nothing changed.`,
  'needs-passkey': (id) =>
    `This payment was approved with passkeys, so confirming not-paid for ${id} needs your passkey; your click changed nothing.`,
};

export function resolveText(o: ResolveOutcome, who: (user: string) => string): string {
  switch (o.kind) {
    case 'not-approver':
      return 'Only approvers can resolve an unknown outcome, so nothing changed.';
    case 'approver-check-failed':
      return 'Rampart could not check the approvers’ user group with Slack just now, so nothing changed; try again in a minute.';
    case 'missing':
      return `There is no request ${o.id}; check the id on its card (e.g. R-1234.1).`;
    case 'self':
      return `You requested ${o.executionId}, so another approver must resolve it; nothing changed.`;
    case 'not-unknown':
      return `${o.executionId} ${STATE_WORDS[o.state ?? ''] ?? 'is gone'}; only an outcome-unknown payment can be resolved, so nothing changed.`;
    case 'bad-proof':
      return `${o.problem} Nothing changed.`;
    case 'paid':
      return `${o.executionId} is recorded as paid (succeeded); its velocity amount stays counted.${o.superseded ? ` This replaces ${who(o.superseded.by)}'s not-paid proposal (both stay in the history).` : ''} The thread and card say so.`;
    case 'proposed':
      return `You proposed that ${o.executionId} was not paid. Nothing has changed yet: it stays outcome unknown until a second approver (not you, not the requester) confirms on the card.`;
    case 'pending':
      return `${who(o.proposal.by)} already proposed that ${o.executionId} was not paid; confirm it on the card (or record paid if you found the payment). Nothing changed.`;
    case 'confirmed':
      return `${o.executionId} is recorded as not paid (failed), proposed by ${who(o.proposal.by)} and confirmed by you; its velocity amount is released.`;
    case 'refused':
      return (
        (REFUSALS[o.why] ?? REFUSALS['no-confirmation'])?.(o.executionId, o.proposal ? who(o.proposal.by) : '') ?? ''
      );
  }
}
