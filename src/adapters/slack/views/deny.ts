/** Deny asks for a reason in a small modal; the denial is a compare-and-set from pending. */

import type { View } from '@slack/types';
import { z } from 'zod';
import { slackActor } from '../../../domain/actor.js';
import { APPROVAL_ID } from '../../../domain/approval.js';
import { plain } from '../blocks/common.js';
import { refusalText } from '../decision-text.js';
import type { Deps } from '../deps.js';
import { encodeMetadata, readMetadata } from '../metadata.js';
import type { Routes, ViewHandler } from '../routes.js';

export const DENY_CALLBACK = 'deny_modal';
// A batch (B-<n>) is denied with the same modal as a single request.
const meta = z.object({ requestId: z.string().regex(APPROVAL_ID), channel: z.string().optional() });

export const denyModal = (requestId: string, channel: string | undefined): View => ({
  type: 'modal',
  callback_id: DENY_CALLBACK,
  private_metadata: encodeMetadata({ requestId, channel }, { requestId }),
  title: plain(`Deny ${requestId}`, 24),
  submit: plain('Deny', 24),
  close: plain('Back', 24),
  blocks: [
    {
      type: 'input',
      block_id: 'reason',
      label: plain('Why is it denied?'),
      element: {
        type: 'plain_text_input',
        action_id: 'reason',
        multiline: true,
        placeholder: plain('The requester sees this in the thread'),
      },
    },
  ],
});

/** The deny modal's submit: a reason of at least three characters, then the denial, or why not on the field. */
export const denySubmit =
  (deps: Deps): ViewHandler =>
  async ({ ack, view, body }) => {
    const m = readMetadata(meta, view.private_metadata);
    const reason = view.state.values.reason?.reason?.value?.trim() ?? '';
    if (!m.ok) {
      await ack({
        response_action: 'errors',
        errors: { reason: 'This form is from an older version of Rampart; click Deny on the card again.' },
      });
      return;
    }
    if (reason.length < 3) {
      await ack({
        response_action: 'errors',
        errors: { reason: 'Give a reason; the requester sees it in the thread.' },
      });
      return;
    }
    const id = m.value.requestId;
    const outcome = await deps.app.approvals.deny(id, slackActor(body.user.id), reason);
    switch (outcome.kind) {
      case 'not-approver':
      case 'approver-check-failed':
        await ack({ response_action: 'errors', errors: { reason: refusalText(outcome) } });
        return;
      case 'late':
        await ack({
          response_action: 'errors',
          errors: { reason: `${id} is already ${outcome.state ?? 'gone'}; nothing changed.` },
        });
        return;
      case 'denied':
        await ack();
        return;
    }
  };

export function registerDenyView(app: Routes, deps: Deps): void {
  app.view(DENY_CALLBACK, denySubmit(deps));
}
