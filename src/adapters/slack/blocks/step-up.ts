/** The private answer to Approve on a step-up request. Pure. */
import type { KnownBlock } from '@slack/types';

export const STEP_UP_ACTION = 'step_up_open';

/** The link carries its token in the fragment; the button only opens it. */
export function stepUpOfferBlocks(
  requestId: string,
  url: string,
  purpose: 'approve' | 'resume' = 'approve',
  /** When the link stops working; the click says "expired" after it. */
  expiresAt?: number,
): KnownBlock[] {
  const resume = purpose === 'resume';
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${requestId} needs your passkey${resume ? ' to resume' : ''}: a Slack click alone does not count for it. The link is yours only and works once, for 5 minutes.`,
      },
    },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: STEP_UP_ACTION,
          text: { type: 'plain_text', text: resume ? 'Resume with your passkey' : 'Approve with your passkey' },
          accessibility_label: `${resume ? 'Resume' : 'Approve'} ${requestId} with your passkey: opens its page`,
          style: 'primary',
          url,
          // The click is also sent to Rampart, which replaces this message: the link works once.
          value: `${purpose}:${requestId}${expiresAt === undefined ? '' : `:${expiresAt}`}`,
        },
      ],
    },
  ];
}

/** The link button's click, read once: what it was for and whether its 5 minutes had passed. */
export interface StepUpClick {
  purpose: string;
  subject: string;
  expired: boolean;
}

/** The button's value as stepUpOfferBlocks writes it (`purpose:subject[:expiresAt]`), judged at `now`. */
export function readStepUpClick(value: string, now: number): StepUpClick {
  const [purpose = '', subject = '', expiresAt] = value.split(':');
  // A time that is not a number (a tampered or garbled value) reads as expired: only a time
  // still ahead keeps the link live.
  return { purpose, subject, expired: expiresAt !== undefined && !(now <= Number(expiresAt)) };
}

/**
 * What replaces the private link message once its button was clicked: the link works once, so
 * the message no longer offers it, and says how to get another.
 */
export function stepUpUsedText(click: StepUpClick): string {
  const { purpose, subject: requestId } = click;
  const again = purpose === 'resume' ? 'Resume' : 'Approve';
  // Clicked after its 5 minutes: the page would refuse it, so the message says so instead.
  if (click.expired)
    return `:hourglass: This link for ${requestId} expired — click ${again} on the card again for a new one. Nothing was recorded.`;
  return `:key: The passkey page for ${requestId} was opened from this link, which works once and for 5 minutes. Nothing moves until you confirm there with your passkey; if you closed it, click ${again} on the card for a new link.`;
}

/** What the private link message says once its link was used: nothing more to click there. */
export const stepUpLinkUsedText = (subject: string): string =>
  `:key: Passkey link used: the link for ${subject} worked once and is spent. The card shows what your passkey did.`;

export const stepUpOfferText = (requestId: string, purpose: 'approve' | 'resume' = 'approve') =>
  `${requestId} needs your passkey: open the link to ${purpose === 'resume' ? 'resume' : 'approve'} it.`;

/** An approver with no usable passkey, in one sentence. */
export const noPasskeyText = (requestId: string, waiting: boolean, purpose: 'approve' | 'resume' = 'approve') => {
  const what = purpose === 'resume' ? 'Resume' : 'Approve';
  return waiting
    ? `${requestId} needs a passkey ${purpose === 'resume' ? 'to resume' : 'approval'} and your passkey cannot count yet (it waits for another approver's approval or its cool-down); your click was not counted.`
    : `${requestId} needs a passkey ${purpose === 'resume' ? 'to resume' : 'approval'} and you have none: type /passkey to register one (another approver approves it), then click ${what} again.`;
};

export const lateText = (requestId: string) => `${requestId} is no longer waiting for approval.`;

/** Confirm not paid on a passkey approval: the private link to the passkey page. */
export function notPaidOfferBlocks(executionId: string, url: string): KnownBlock[] {
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${executionId} was approved with passkeys, so confirming it was not paid needs yours: a Slack click alone does not count. The link is yours only and works once, for 5 minutes.`,
      },
    },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: STEP_UP_ACTION,
          text: { type: 'plain_text', text: 'Confirm not paid with your passkey' },
          accessibility_label: `Confirm ${executionId} not paid with your passkey: opens its page`,
          style: 'danger',
          url,
        },
      ],
    },
  ];
}

export const notPaidOfferText = (executionId: string) =>
  `${executionId} needs your passkey: open the link to confirm it was not paid.`;

/** Confirm not paid on a passkey approval by an approver with no passkey that counts. */
export const notPaidNoPasskeyText = (executionId: string, waiting: boolean) =>
  waiting
    ? `Confirming ${executionId} not paid needs a passkey and yours cannot count yet (it waits for another approver's approval or its cool-down); nothing changed.`
    : `Confirming ${executionId} not paid needs a passkey and you have none: type /passkey to register one (another approver approves it), then click Confirm not paid again. Nothing changed.`;
