/**
 * The approval card's buttons: Approve with its confirmation (what runs, to the full address,
 * and whether this click runs it), Deny, and the requester's Cancel in the ⋯ menu. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { CardCommitments } from '../../../domain/commitments.js';
import type { RequestRecord } from '../../../domain/request.js';
import { approveConfirmText, buttonLabel } from './card-summary.js';
import { plain } from './common.js';
import { checkedWarnings, WARNINGS_CHECKED } from './repeat-lines.js';

export const APPROVAL_ACTIONS = { approve: 'request_approve', deny: 'request_deny', cancel: 'request_cancel' } as const;

/** Slack's confirm text holds 300 characters: the full wording when it fits, then shorter ones, never cut mid-sentence. */
function confirmText(record: RequestRecord, commitments: CardCommitments | undefined, checked?: string): string {
  const tries = [
    [checked, approveConfirmText(record, commitments)],
    [checked && 'I checked the warnings.', approveConfirmText(record, commitments)],
    [checked && 'I checked the warnings.', approveConfirmText(record, commitments, true)],
  ].map((parts) => parts.filter(Boolean).join(' '));
  return tries.find((t) => t.length <= 300) ?? (tries.at(-1) as string);
}

export function buttons(record: RequestRecord, frozen: boolean, commitments?: CardCommitments): KnownBlock {
  const f = record.sealed;
  // With warnings on the card, Approve asks the approver to confirm they checked
  // them, and the click says so (its value) so the vote's history records it in the same script.
  const checked = checkedWarnings(f);
  const approve = {
    type: 'button',
    action_id: APPROVAL_ACTIONS.approve,
    style: 'primary',
    text: plain('Approve', 75),
    accessibility_label: buttonLabel('Approve', f),
    value: checked ? `${f.id} ${WARNINGS_CHECKED}` : f.id,
    confirm: checked
      ? {
          title: plain('Checked the warnings?', 100),
          text: plain(confirmText(record, commitments, checked), 300),
          confirm: plain('Checked, approve', 30),
          deny: plain('Back', 30),
        }
      : {
          title: plain('Approve this request?', 100),
          text: plain(confirmText(record, commitments), 300),
          confirm: plain('Approve', 30),
          deny: plain('Back', 30),
        },
  };
  const elements = [
    ...(frozen ? [] : [approve]),
    {
      type: 'button',
      action_id: APPROVAL_ACTIONS.deny,
      style: 'danger',
      text: plain('Deny', 75),
      accessibility_label: buttonLabel('Deny', f),
      value: f.id,
    },
    // The requester's cancel in a menu, so the row fits a phone.
    {
      type: 'overflow',
      action_id: APPROVAL_ACTIONS.cancel,
      options: [{ text: plain('Cancel my request (requester only)', 75), value: f.id }],
    },
  ];
  return { type: 'actions', block_id: `approval-${f.id}`, elements } as KnownBlock;
}
