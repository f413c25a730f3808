/**
 * The "new beneficiary" modals (spec 4.3, 2.10): a Nigerian account (looked up first, then
 * confirmed) or a cross-border account with the fields of 2.10 and the full BankAddress.
 */
import type { KnownBlock, View } from '@slack/types';
import { z } from 'zod';
import { ADDRESS_FIELDS, CROSS_BORDER_FIELDS } from '../../../domain/beneficiary-form.js';
import type { BeneficiaryEntry } from '../../../domain/registry-entries.js';
import { encodeMetadata } from '../metadata.js';
import { type Blocks, context, errorBlocks, esc, plain, reasonInput, section } from './common.js';
import { resultModal } from './identity.js';

export const BENEFICIARY_CALLBACK = {
  ng: 'beneficiary_ng',
  xb: 'beneficiary_xb',
  confirm: 'beneficiary_confirm',
} as const;
export const BENEFICIARY_ACTIONS = {
  switchVariant: 'beneficiary_switch',
  newIdentity: 'beneficiary_new_identity',
} as const;

export const beneficiaryMetaSchema = z.object({ channel: z.string().optional() });
export interface BeneficiaryMeta {
  channel?: string | undefined;
}
export const confirmMetaSchema = z.object({ token: z.string() });

const text = (id: string, label: string, optional = false, hint?: string): KnownBlock =>
  ({
    type: 'input',
    block_id: id,
    optional,
    label: plain(label),
    ...(hint ? { hint: plain(hint) } : {}),
    element: { type: 'plain_text_input', action_id: id },
  }) as KnownBlock;

/** The identity picker: Rampart's registry, and any id the service knows. */
export const identityInput = (): KnownBlock =>
  ({
    type: 'input',
    block_id: 'identity',
    label: plain('Identity (the account owner)'),
    hint: plain("Type a name, the BVN's last 4 digits, or the identity's id to check it with the service."),
    element: {
      type: 'external_select',
      action_id: 'identity',
      min_query_length: 0,
      placeholder: plain('Name, last 4 BVN digits, or id'),
    },
  }) as KnownBlock;

function common(meta: BeneficiaryMeta): KnownBlock[] {
  return [
    identityInput(),
    {
      type: 'actions',
      block_id: 'beneficiary_tools',
      elements: [
        {
          type: 'button',
          action_id: BENEFICIARY_ACTIONS.newIdentity,
          text: plain('New identity…', 75),
          value: meta.channel ?? '',
        },
        {
          type: 'button',
          action_id: BENEFICIARY_ACTIONS.switchVariant,
          text: plain('Switch Nigerian / cross-border', 75),
          value: 'switch',
        },
      ],
    } as KnownBlock,
  ];
}

export const nigerianModal = (meta: BeneficiaryMeta): View => ({
  type: 'modal',
  callback_id: BENEFICIARY_CALLBACK.ng,
  private_metadata: encodeMetadata(meta, {}),
  title: plain('New beneficiary', 24),
  submit: plain('Look up account', 24),
  close: plain('Cancel', 24),
  blocks: [
    ...common(meta),
    text('bank_code', 'Bank code', false, 'e.g. 058'),
    text('account_number', 'Account number', false, '10-digit NUBAN; looked up before anything is created'),
    reasonInput(),
    context('Currency: NGN. A new payout destination needs approval like a payment.'),
  ],
});

export const crossBorderModal = (meta: BeneficiaryMeta): View => ({
  type: 'modal',
  callback_id: BENEFICIARY_CALLBACK.xb,
  private_metadata: encodeMetadata(meta, {}),
  title: plain('New beneficiary', 24),
  submit: plain('Request approval', 24),
  close: plain('Cancel', 24),
  blocks: [
    ...common(meta),
    ...CROSS_BORDER_FIELDS.map(([id, label]) => text(id, label, !['bank_name', 'account_name'].includes(id))),
    section('*Bank address* (all fields required)'),
    ...ADDRESS_FIELDS.map(([id, label]) =>
      text(`addr_${id}`, label, false, id === 'house_no' ? 'A number' : id === 'country' ? 'e.g. GB, US' : undefined),
    ),
    reasonInput(),
  ],
});

export interface ConfirmDetails {
  identityName: string;
  bankName: string;
  accountMasked: string;
  holderName: string;
}

export const confirmModal = (token: string, d: ConfirmDetails): View => ({
  type: 'modal',
  callback_id: BENEFICIARY_CALLBACK.confirm,
  private_metadata: encodeMetadata({ token }),
  title: plain('Confirm beneficiary', 24),
  submit: plain('Request approval', 24),
  close: plain('Back', 24),
  blocks: [
    section(
      `*${esc(d.holderName)}*\n${esc(d.bankName)} · account ${esc(d.accountMasked)}\nIdentity: ${esc(d.identityName)}`,
    ),
    context(':white_check_mark: Holder name as verified by the bank lookup. Is this who you mean to pay?'),
  ],
});

export const beneficiaryListBlocks = (entries: BeneficiaryEntry[]): Blocks =>
  entries.length === 0
    ? [
        section(
          'No beneficiaries approved in Rampart yet. Add one with `/beneficiary new`, or register one that already exists at the service with `/beneficiary register`.',
        ),
      ]
    : [
        section(`*Approved beneficiaries* (${entries.length})`),
        section(
          entries
            .slice(0, 40)
            .map((b) =>
              b.asStated
                ? `${esc(b.label)} · ${esc(b.bankName)} ${esc(b.accountMasked)} · as stated by <@${b.createdBy}> · approved by <@${b.approvedBy}>`
                : `${esc(b.label)} · holder ${esc(b.holderName)} · approved by <@${b.approvedBy}>`,
            )
            .join('\n'),
        ),
      ];

/** The form became request `id`: where it waits, and what happens once approved. */
export const beneficiaryRequestedModal = (id: string, where: { approvalsChannel: string }): View =>
  resultModal('New beneficiary', [
    section(
      `:hourglass_flowing_sand: *${id}* is waiting for approval in <#${where.approvalsChannel}>. Once approved and created, the beneficiary appears in the offramp list.`,
    ),
  ]);

/** The confirmation step could not go on: one sentence, in place of the form. */
export const beneficiaryProblemModal = (message: string): View => resultModal('New beneficiary', errorBlocks(message));
