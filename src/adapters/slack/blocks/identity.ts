/** Identity modal and answers. A BVN is only ever shown as its last four digits. */

import type { View } from '@slack/types';
import type { CreateIdentityOutcome } from '../../../app/create-identity.js';
import { describeError, describeWriteFailure } from '../../../app/describe-error.js';
import type { IdentityCheck, IdentityRefusal } from '../../../app/identities.js';
import { bvnText, maskBvn, maskLongNumbers } from '../../../domain/personal-data.js';
import type { IdentityEntry } from '../../../domain/registry-entries.js';
import { encodeMetadata } from '../metadata.js';
import { type Blocks, context, errorBlocks, esc, link, linkTarget, plain, section, slackDate } from './common.js';

export const IDENTITY_CALLBACK = 'identity_modal';

export const identityModal = (meta: { channel?: string }): View => ({
  type: 'modal',
  callback_id: IDENTITY_CALLBACK,
  private_metadata: encodeMetadata(meta, {}),
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

/** `/identity <id>`: what GET /identity said just now, with what Rampart knows. */
export const identityBlocks = (entry: IdentityEntry): Blocks => [
  section(
    [
      `*Identity* \`${esc(entry.id)}\`${entry.name ? ` · ${esc(entry.name)}` : ''}`,
      `Type: ${esc(entry.type.toUpperCase())} · ${entry.isActive === false ? ':red_circle: inactive: it cannot own a new beneficiary' : ':large_green_circle: active'}`,
      `BVN: ${entry.bvnLast4 ? maskBvn(entry.bvnLast4) : 'not shown by the service'}`,
    ].join('\n'),
  ),
  context(
    entry.source === 'service'
      ? `:white_check_mark: Checked with the service just now. It existed before Rampart; it is now in Rampart's registry (masked), so pickers find it by id or the BVN's last digits.`
      : `:white_check_mark: Checked with the service just now. Created through Rampart by <@${entry.createdBy}> ${slackDate(entry.createdAt)}.`,
  ),
];

/** Why a chosen identity is refused, on the form's identity field. */
export function identityRefusal(why: IdentityRefusal): string {
  switch (why) {
    case 'missing':
      return 'Choose the identity that owns this account, type its id, or create one with "New identity…".';
    case 'unknown':
      return 'Rampart has not seen that identity; type its id in the field so the service can check it.';
    case 'inactive':
      return 'The service says this identity is inactive, so no beneficiary can be added for it; choose another or ask the service to reactivate it.';
  }
}

/** `/identity <id>` when the service could not confirm it. */
export function identityCheckProblem(
  check: Exclude<IdentityCheck, { kind: 'found' }>,
  describe: (e: unknown) => string,
) {
  switch (check.kind) {
    case 'unknown':
      return `The service knows no identity \`${maskLongNumbers(check.id)}\`. Check the id (it is the service's id, e.g. from its dashboard), or create one with \`/identity new\`.`;
    case 'bvn':
      return 'That looks like a BVN. Rampart never looks people up by BVN; give the identity id.';
    case 'slow':
      return 'The service did not answer in time; try again in a moment.';
    case 'unavailable':
      return describe(check.error);
  }
}

export const identityListBlocks = (entries: IdentityEntry[]): Blocks =>
  entries.length === 0
    ? [
        section(
          'No identities in Rampart yet. Create one with `/identity new`, or check one the service already has with `/identity &lt;id&gt;`.',
        ),
      ]
    : [
        section(`*Identities in Rampart* (${entries.length})`),
        section(
          entries
            .slice(0, 40)
            .map(
              (e) =>
                `\`${esc(e.id)}\` ${esc(e.name || 'name not known')} · ${bvnText(e.bvnLast4)} · ${e.source === 'service' ? `existing at the service${e.isActive === false ? ', inactive' : ''}, seen by` : 'by'} <@${e.createdBy}>`,
            )
            .join('\n'),
        ),
      ];

const NEW_IDENTITY = 'New BVN identity';

/** Shown at once, while the service creates the identity (after Slack's ack). */
export const identityCreatingModal = (): View =>
  resultModal(NEW_IDENTITY, [section(':hourglass_flowing_sand: Creating the identity…')]);

/** What the create did (spec 4.5); an ambiguous failure is said loudly, never "try again". */
export function identityCreatedModal(o: CreateIdentityOutcome): View {
  let blocks: Blocks;
  if (o.kind === 'created') {
    // The service's URL goes through the one link builder (escaped, http(s) only).
    const verify = o.link && linkTarget(o.link) ? `\nVerification link: ${link(o.link, 'open')}` : '';
    blocks = [
      section(
        `:white_check_mark: Identity created for *${esc(o.name)}*\nId: \`${esc(o.id)}\` · BVN ${o.bvnMasked}${verify}`,
      ),
    ];
  } else if (o.kind === 'unknown') {
    blocks = errorBlocks(
      `*Outcome unknown.* ${describeWriteFailure(o.error)} The identity may have been created: do not create it again until the service's records (ask its operators) show it does not exist.`,
    );
  } else {
    blocks = errorBlocks(describeError(o.error));
  }
  return resultModal(NEW_IDENTITY, blocks);
}
