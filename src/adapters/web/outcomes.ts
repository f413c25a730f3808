/** What the passkey pages say once the server decided. Pure. */
import type { BatchControlOutcome } from '../../app/batch-control.js';
import type { ApproveOutcome } from '../../app/decide.js';
import type { PasskeyDecided } from '../../app/passkey-decide.js';
import type { Passkey } from '../../domain/passkey.js';
import { unconfirmedText } from '../../presenters/address.js';
import { messageHtml } from './pages.js';

export function decidedHtml(o: ApproveOutcome): string {
  switch (o.kind) {
    case 'approved':
      return messageHtml(`Approved with your passkey: ${o.requestId} has its approvals and is queued to run.`);
    case 'voted':
      return messageHtml(`Your approval of ${o.requestId} counts; it still needs another approver.`);
    case 'duplicate':
      return messageHtml(`You have already approved ${o.requestId}.`, 'refused');
    case 'self':
      return messageHtml(`You requested ${o.requestId}, so you cannot approve it.`, 'refused');
    case 'late':
      return messageHtml(`${o.decided.requestId} is no longer waiting for approval; nothing was recorded.`, 'refused');
    case 'frozen':
      return messageHtml(`Rampart is frozen, so your approval of ${o.requestId} was not counted.`, 'refused');
    case 'over_limit':
      return messageHtml(`${o.requestId} stays pending and your approval was not counted. ${o.message}`, 'refused');
    case 'unavailable':
      return messageHtml(
        'Rampart’s store did not answer; your approval may not have counted. Check the card in Slack.',
        'refused',
      );
    case 'not-approver':
    case 'approver-check-failed':
      return messageHtml('You are not an approver, so nothing was recorded.', 'refused');
    case 'unconfirmed':
      return messageHtml(unconfirmedText(o.requestId), 'refused');
    case 'missing':
    case 'step-up':
      return messageHtml('This approval could not be recorded. Go back to Slack and click Approve again.', 'refused');
  }
}

export function enrolledHtml(p: Passkey): string {
  return p.status === 'active'
    ? messageHtml('Your passkey is registered and can approve payments now.')
    : messageHtml(
        'Your passkey is registered and waits for another approver to approve it with their own passkey; then it counts after its cool-down.',
      );
}

export function resumedHtml(o: BatchControlOutcome): string {
  if (o.kind === 'resumed')
    return messageHtml(`Resumed with your passkey: ${o.requestId}'s remaining rows run one at a time.`);
  if (o.kind === 'self') return messageHtml(`You requested ${o.requestId}, so you cannot resume it.`, 'refused');
  if (o.kind === 'late') return messageHtml(`${o.requestId} is no longer paused; nothing changed.`, 'refused');
  if (o.kind === 'unfunded') return messageHtml(`Not resumed: ${o.shortfall}. ${o.requestId} stays paused.`, 'refused');
  return messageHtml('This batch could not be resumed. Go back to Slack and look at its card.', 'refused');
}

export function passkeyDecidedHtml(d: PasskeyDecided): string {
  if (d.kind === 'activated')
    return messageHtml(
      `Approved with your passkey: ${d.passkey.user}'s new passkey counts for payments from ${new Date(d.usableFrom).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    );
  if (d.kind === 'removed') return messageHtml('Removed: that passkey no longer counts for anything.');
  return messageHtml('Someone decided about this passkey first; nothing changed.', 'refused');
}
