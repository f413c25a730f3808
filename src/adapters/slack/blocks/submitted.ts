/**
 * What a form says when it did not become a new request: nothing was submitted, or a
 * repeated submit, with where the first one went.
 */
import type { View } from '@slack/types';
import { section } from './common.js';

/** Said at the form when Redis did not answer in time; true because the create is refused after its deadline. */
export const NOTHING_SUBMITTED =
  "Rampart's database did not answer in time, so nothing was submitted; submit again in a moment.";

const TITLE = { transfer: 'Transfer', offramp: 'Offramp', beneficiary: 'New beneficiary' } as const;

export const alreadySubmittedModal = (
  kind: keyof typeof TITLE,
  id: string,
  where: { config: { approvalsChannel: string } },
): View => ({
  type: 'modal',
  title: { type: 'plain_text', text: TITLE[kind] },
  close: { type: 'plain_text', text: 'Done' },
  blocks: [
    section(
      `:information_source: This form was already submitted as *${id}*; it is waiting for approval in <#${where.config.approvalsChannel}>. Nothing new was submitted.`,
    ),
  ],
});

/** A form that made no new request: already sent as `id`, refused (its sentence), or nothing stored. */
export const notCreatedSentence = (
  s: { kind: 'taken'; id: string } | { kind: 'refused'; reason: string } | { kind: 'nothing' },
): string =>
  s.kind === 'taken'
    ? `This form was already sent for approval as ${s.id}; look for it in the approvals channel.`
    : s.kind === 'refused'
      ? s.reason
      : NOTHING_SUBMITTED;
