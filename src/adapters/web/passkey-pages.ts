/** The step-up page about a passkey itself: approving someone's new one, removing your own. Pure. */
import { authenticatorName } from '../../domain/aaguid-names.js';
import type { Passkey } from '../../domain/passkey.js';
import { escapeHtml } from './pages.js';

const when = (ms: number): string => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** What the approval card shows: authenticator, browser, time, and the person to confirm with. */
export function passkeyFactsHtml(p: Passkey): string {
  const row = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`;
  return [
    '<dl>',
    row('Owner', p.user),
    row('Authenticator', authenticatorName(p.aaguid)),
    row('Browser', p.browser),
    row('Registered', when(p.createdAt)),
    row('Passkey id', p.id),
    '</dl>',
  ].join('');
}

export function passkeyDecisionHtml(purpose: 'enrol-approve' | 'remove', p: Passkey, user: string): string {
  if (purpose === 'remove')
    return [
      '<h2>Remove one of your passkeys</h2>',
      passkeyFactsHtml(p),
      '<p>Confirm with ANOTHER of your passkeys; this one stops counting at once.</p>',
      '<p><button id="go" type="button">Remove with another passkey</button></p>',
      '<p id="status" role="status"></p>',
    ].join('');
  return [
    `<h2>Approve a new passkey of ${escapeHtml(p.user)}</h2>`,
    passkeyFactsHtml(p),
    `<p><strong>Confirm with ${escapeHtml(p.user)} by voice or in person</strong> that they registered it just now, on this device; a Slack message is not enough.</p>`,
    `<p>You are ${escapeHtml(user)}. Your own passkey approves it; it counts for payments only after its cool-down.</p>`,
    '<p><button id="go" type="button">Approve with your passkey</button></p>',
    '<p id="status" role="status"></p>',
  ].join('');
}
