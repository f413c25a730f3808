/** Kill switch texts: the banner on every open card and App Home, click refusals. Pure. */

import type { FreezeState, UnfreezeChoice, UnfreezeProposal } from '../../../domain/freeze-state.js';
import { plural, pluralWord } from '../../../domain/words.js';
import { type Blocks, context, header, plain, quoted, section, slackDate } from './common.js';

/**
 * The approver's words, quoted as typed (common.ts quoted): no mrkdwn, mention or link in them
 * acts. A sentence ends once: a reason typed with its own full stop loses it to the one after.
 */
const why = (f: FreezeState): string => quoted(f.reason.trim().replace(/[.!?]+$/, ''));

export const freezeBannerText = (f: FreezeState): string =>
  `:octagonal_sign: *Frozen by <@${f.by}> at ${slackDate(f.at)}:* ${why(f)}. Nothing is approved or executed until an unfreeze is approved (\`/unfreeze\`).`;

export function frozenClickText(id: string, f: FreezeState | undefined): string {
  const who = f ? ` by <@${f.by}> at ${slackDate(f.at)} (${why(f)})` : '';
  return `Rampart is frozen${who}, so ${id} cannot be approved now; nothing changed. It can be approved once an unfreeze is approved with /unfreeze.`;
}

/** The one message in the approvals channel when Rampart is frozen. */
export const freezeAnnouncement = (f: FreezeState, open: number): string =>
  `:octagonal_sign: *Rampart is frozen* by <@${f.by}> at ${slackDate(f.at)}: ${why(f)}\nNo request can be approved and nothing runs until an unfreeze is approved (\`/unfreeze\`, two approvers). ${plural(open, 'open request')} ${pluralWord(open, 'is', 'are')} marked on their cards.`;

// The action ids stay as posted on unfreeze cards already in Slack.
export const UNFREEZE_ACTIONS = { unfreeze: 'unfreeze_release', cancel: 'unfreeze_cancel' } as const;

export interface UnfreezeCardInput {
  proposal: UnfreezeProposal;
  freeze: FreezeState | undefined;
  /** Approved requests the freeze holds (before a decision) or ids it held (after). */
  held: readonly { id: string; line: string }[];
  required: number;
}

// A vote reads as what the approver chose: "@ayo: unfreeze ✓", and, when requests are held, what happens to them.
const choiceWord = (choice: UnfreezeChoice, held: number): string =>
  held === 0
    ? 'unfreeze ✓'
    : choice === 'unfreeze'
      ? 'unfreeze ✓, run the held ones'
      : 'unfreeze ✓, cancel the held ones';

/** The /unfreeze card: what the freeze holds, the votes, and the two choices until decided. */
export function unfreezeCardBlocks(c: UnfreezeCardInput): Blocks {
  const { proposal } = c;
  const votes = Object.entries(proposal.votes)
    .map(([u, choice]) => `<@${u}>: ${choiceWord(choice, c.held.length)}`)
    .join(', ');
  const heldText = c.held.length
    ? c.held
        .slice(0, 40)
        .map((h) => `• ${h.line}`)
        .join('\n') + (c.held.length > 40 ? `\n…and ${c.held.length - 40} more` : '')
    : '_No approved request is waiting to run._';
  const blocks: Blocks = [
    header('Unfreeze Rampart'),
    section(
      proposal.decided
        ? `:white_check_mark: *Unfrozen.* The approvers chose to ${proposal.decided === 'unfreeze' ? '*run* what the freeze held: each runs once, as usual.' : '*cancel* what the freeze held: none of it runs; each card says so.'}`
        : `${c.freeze ? freezeBannerText(c.freeze) : ''}\nAsked by <@${proposal.by}> at ${slackDate(proposal.at)}. Needs ${plural(c.required, 'approver')} choosing the same.`,
    ),
    section(
      `*${proposal.decided ? 'Held by the freeze' : 'Approved, waiting to run'}* (${c.held.length})\n${heldText}`,
    ),
    context(`Votes: ${votes || 'none yet'}`),
  ];
  if (!proposal.decided && c.held.length === 0) {
    // Nothing is held, so there is nothing to run or cancel: one choice.
    blocks.push({
      type: 'actions',
      block_id: `unfreeze-${proposal.id.slice(0, 40)}`,
      elements: [
        {
          type: 'button',
          action_id: UNFREEZE_ACTIONS.unfreeze,
          style: 'primary',
          text: plain('Unfreeze', 75),
          accessibility_label: 'Unfreeze Rampart (nothing is waiting to run)',
          value: proposal.id,
        },
      ],
    });
  } else if (!proposal.decided) {
    blocks.push({
      type: 'actions',
      block_id: `unfreeze-${proposal.id.slice(0, 40)}`,
      elements: [
        {
          type: 'button',
          action_id: UNFREEZE_ACTIONS.unfreeze,
          style: 'primary',
          text: plain('Unfreeze and run them', 75),
          value: proposal.id,
        },
        {
          type: 'button',
          action_id: UNFREEZE_ACTIONS.cancel,
          style: 'danger',
          text: plain('Unfreeze and cancel them', 75),
          value: proposal.id,
        },
      ],
    });
  }
  return blocks;
}
