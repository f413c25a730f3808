/** Identity modal and answers. A BVN is only ever shown as its last four digits (issue 5). */

import type { View } from '@slack/types';
import { maskBvn } from '../../domain/personal-data.js';
import type { Identity } from '../../service/schemas.js';
import type { IdentityEntry } from '../../store/registry.js';
import { type Blocks, context, esc, plain, section, slackDate } from './common.js';

export const IDENTITY_CALLBACK = 'identity_modal';

export const identityModal = (meta: { channel?: string }): View => ({
  type: 'modal',
  callback_id: IDENTITY_CALLBACK,
  private_metadata: JSON.stringify(meta),
  title: plain('New BVN identity', 24),
  submit: plain('Create identity', 24),
  close: plain('Cancel', 24),
  blocks: [
    {
      type: 'input',
      block_id: 'name',
      label: plain('Full name'),
      element: { type: 'plain_text_input', action_id: 'name', placeholder: plain('As registered with the bank') },
    },
    {
      type: 'input',
      block_id: 'bvn',
      label: plain('BVN'),
      hint: plain('11 digits. Rampart never shows or logs it in full.'),
      element: { type: 'plain_text_input', action_id: 'bvn', max_length: 11 },
    },
    {
      type: 'input',
      block_id: 'dob',
      label: plain('Date of birth'),
      element: { type: 'datepicker', action_id: 'dob' },
    },
    context('Only approvers may create identities. The service verifies the BVN against the name and date of birth.'),
  ],
});

export const resultModal = (title: string, blocks: Blocks): View => ({
  type: 'modal',
  title: plain(title, 24),
  close: plain('Done', 24),
  blocks,
});

export const identityBlocks = (identity: Identity, entry: IdentityEntry | undefined): Blocks => [
  section(
    [
      `*Identity* \`${esc(identity.id)}\`${entry ? ` · ${esc(entry.name)}` : ''}`,
      `Type: ${esc(identity.type.toUpperCase())} · ${identity.is_active ? ':large_green_circle: active' : ':red_circle: inactive'}`,
      `BVN: ${maskBvn(identity.details.bvn)}`,
    ].join('\n'),
  ),
  ...(entry ? [context(`Created through Rampart by <@${entry.createdBy}> ${slackDate(entry.createdAt)}`)] : []),
];

export const identityListBlocks = (entries: IdentityEntry[]): Blocks =>
  entries.length === 0
    ? [section('No identities created through Rampart yet. Create one with `/identity new`.')]
    : [
        section(`*Identities created through Rampart* (${entries.length})`),
        section(
          entries
            .slice(0, 40)
            .map(
              (e) => `\`${esc(e.id)}\` ${esc(e.name)} · BVN ${maskBvn(`0000000${e.bvnLast4}`)} · by <@${e.createdBy}>`,
            )
            .join('\n'),
        ),
      ];
