/**
 * What Slack shows about passkeys — the /passkey answer (an enrol link and the list),
 * the approval card of a new passkey, the owner's direct messages. Pure. Nothing here removes or
 * approves anything: every button leads to the passkey page.
 */
import type { KnownBlock } from '@slack/types';
import { authenticatorName } from '../../../domain/aaguid-names.js';
import type { Passkey, PasskeyCardDecision, StoredPasskey } from '../../../domain/passkey.js';
import { esc, spokenLabel } from './common.js';

export const PASSKEY_ACTIONS = {
  /** On the approval card: value `<owner>/<credential id>`. */
  approve: 'passkey_approve',
  /** In /passkey's list: `passkey_remove_<n>` (action ids are unique in a message); value the credential id. */
  remove: 'passkey_remove',
  /** A button that only opens a link (enrol, approve, remove pages). */
  open: 'passkey_open',
} as const;

export const PASSKEY_USAGE =
  'Usage: `/passkey` gives you a one-time link (10 minutes) to register a passkey, and lists yours; a new one counts only after another approver approves it with their own passkey, and then after its cool-down. Approvers only.';

const when = (ms: number): string =>
  `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${new Date(ms).toISOString()}>`;
const shortId = (id: string): string => (id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id);

function state(p: StoredPasskey, now: number): string {
  if (p.status === 'pending') return 'waiting for another approver’s passkey approval';
  if (p.usableFrom > now) return `approved by <@${p.approvedBy ?? '?'}>, counts from ${when(p.usableFrom)}`;
  return p.approvedBy === 'cli'
    ? 'active (enrolled from the server)'
    : `active (approved by <@${p.approvedBy ?? '?'}>)`;
}

const openButton = (text: string, url: string): KnownBlock => ({
  type: 'actions',
  elements: [
    { type: 'button', action_id: PASSKEY_ACTIONS.open, text: { type: 'plain_text', text }, style: 'primary', url },
  ],
});

/** /passkey: the enrol link, then every passkey of the person with a Remove button each. */
export function passkeyCommandBlocks(url: string, passkeys: readonly StoredPasskey[], now: number): KnownBlock[] {
  const list: KnownBlock[] = passkeys.map((p, i) => ({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: `*${esc(authenticatorName(p.aaguid))}* · ${esc(p.browser.slice(0, 80))} · registered ${when(p.createdAt)} · \`${esc(shortId(p.id))}\`\n${state(p, now)}`,
    },
    accessory: {
      type: 'button',
      action_id: `${PASSKEY_ACTIONS.remove}_${i + 1}`,
      text: { type: 'plain_text', text: 'Remove…' },
      accessibility_label: spokenLabel(
        `Remove passkey ${shortId(p.id)} (${authenticatorName(p.aaguid)})`,
        `Remove passkey ${shortId(p.id)}`,
      ),
      value: p.id,
    },
  }));
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'Register a passkey on this device: the link is yours only and works once, for 10 minutes. Another approver then approves it with their own passkey; it counts for payments after its cool-down.',
      },
    },
    openButton('Register a passkey', url),
    { type: 'divider' },
    ...(list.length
      ? list
      : [{ type: 'section', text: { type: 'mrkdwn', text: 'You have no passkeys yet.' } } satisfies KnownBlock]),
    ...(list.length
      ? [
          {
            type: 'context',
            elements: [
              {
                type: 'mrkdwn',
                text: 'Removing one needs another of your passkeys (or `rampart passkeys revoke` on the server): Slack alone can only list them.',
              },
            ],
          } satisfies KnownBlock,
        ]
      : []),
  ];
}

export const passkeyCardText = (p: Passkey): string =>
  `<@${p.user}> registered a new passkey (${authenticatorName(p.aaguid)}); another approver approves it with their own passkey.`;

/** The approval card of a new passkey (approvals channel). */
export function passkeyCardBlocks(p: Passkey): KnownBlock[] {
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `:key: *New passkey for <@${p.user}>* — it counts for nothing until another approver approves it here with their own passkey.`,
      },
    },
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Authenticator*\n${esc(authenticatorName(p.aaguid))}` },
        { type: 'mrkdwn', text: `*Browser*\n${esc(p.browser.slice(0, 200))}` },
        { type: 'mrkdwn', text: `*Registered*\n${when(p.createdAt)}` },
        { type: 'mrkdwn', text: `*Passkey id*\n\`${esc(shortId(p.id))}\`` },
      ],
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `:warning: *Confirm with <@${p.user}> by voice or in person* before approving: a stolen Slack session can ask for a passkey too.`,
      },
    },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: PASSKEY_ACTIONS.approve,
          text: { type: 'plain_text', text: 'Approve passkey…' },
          // A label cannot mention a person; the passkey's short id is on the card beside it.
          accessibility_label: spokenLabel(
            `Approve new passkey ${shortId(p.id)} (${authenticatorName(p.aaguid)})`,
            `Approve new passkey ${shortId(p.id)}`,
          ),
          value: `${p.user}/${p.id}`,
        },
      ],
    },
  ];
}

const decisionLine = (d: PasskeyCardDecision): string =>
  d.kind === 'approved'
    ? `:white_check_mark: *Approved* by <@${d.by}> with their own passkey; it counts for payments from ${when(d.usableFrom)}.`
    : `:no_entry_sign: *Refused*: removed before anyone approved it, ${d.by === 'cli' ? 'from the server (`rampart passkeys revoke`)' : `by <@${d.by}> with another of their passkeys`}.`;

export const passkeyCardDecidedText = (p: Passkey, d: PasskeyCardDecision): string =>
  `<@${p.user}>'s new passkey (${authenticatorName(p.aaguid)}) was ${d.kind === 'approved' ? `approved by <@${d.by}>` : 'removed before approval'}.`;

/** The approval card once decided: what was decided and by whom, no button. */
export function passkeyCardDecidedBlocks(p: Passkey, d: PasskeyCardDecision): KnownBlock[] {
  const [, details] = passkeyCardBlocks(p);
  return [
    { type: 'section', text: { type: 'mrkdwn', text: `:key: *New passkey for <@${p.user}>*` } },
    ...(details ? [details] : []),
    { type: 'section', text: { type: 'mrkdwn', text: decisionLine(d) } },
  ];
}

/** The owner's direct messages (every passkey requested, added or removed). */
export const requestedDm = (p: Passkey): string =>
  `A passkey (${authenticatorName(p.aaguid)}, ${p.browser.slice(0, 80)}) was registered for you and waits for another approver's approval. If this was not you, tell an approver now.`;

export const addedDm = (p: Passkey): string =>
  p.approvedBy === 'cli'
    ? `A passkey (${authenticatorName(p.aaguid)}) was added for you from the server; it counts for payments now. If this was not you, tell an approver now.`
    : `Your passkey (${authenticatorName(p.aaguid)}) was approved by <@${p.approvedBy ?? '?'}>; it counts for payments from ${when(p.usableFrom)}. If this was not you, tell an approver now.`;

export const removedDm = (removed: readonly Passkey[], by: string): string =>
  `${removed.length === 1 ? `Your passkey (${authenticatorName(removed[0]?.aaguid ?? '')}) was` : `${removed.length} of your passkeys were`} removed ${by === 'cli' ? 'from the server' : 'with another of your passkeys'}. If this was not you, tell an approver now.`;

/** One sentence for each refusal of a passkey button. */
export const passkeyOfferText = {
  self: 'You cannot approve your own passkey: another approver must, with their own passkey.',
  'not-approver': 'Only approvers approve passkeys.',
  late: 'That passkey is no longer waiting (already approved or removed).',
  'no-passkey': 'Approving a passkey needs a passkey of your own that counts: type /passkey to register one.',
  'no-other':
    'Removing a passkey needs another passkey of yours that counts; without one, ask an operator to run `rampart passkeys revoke` on the server.',
  'remove-late': 'That passkey is already gone.',
} as const;

export { openButton as passkeyLinkBlock };
