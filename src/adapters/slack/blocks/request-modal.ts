/** The /transfer and /offramp modals, pre-filled from the command text. Pure builders. */
import type { KnownBlock, PlainTextOption, View } from '@slack/types';
import { z } from 'zod';
import { amountTextProblem } from '../../../domain/amount.js';
import { ASSET_IDS, assetInfo, CHAINS } from '../../../domain/assets.js';
import type { Prefill } from '../../../domain/command-text.js';
import { encodeMetadata } from '../metadata.js';
import { context, esc, input, plain, section } from './common.js';
import { repeatInputs } from './repeat-input.js';
import { type AssetChoice, entireBalanceText, prefillWarnings } from './request-modal-text.js';
import { whenInput } from './when-input.js';

export type { AssetChoice };
export { prefillWarnings };

export const REQUEST_CALLBACK = { transfer: 'transfer_modal', offramp: 'offramp_modal' } as const;
export const NEW_BENEFICIARY_ACTION = 'offramp_new_beneficiary';
export const EXISTING_BENEFICIARY_ACTION = 'offramp_existing_beneficiary';

export interface ModalMeta {
  kind: 'transfer' | 'offramp';
  /** Where the command was typed: the requester's confirmation goes there. */
  channel: string;
  /** What the command text pre-filled, kept so the asset list can be refreshed in place. */
  prefill?: Prefill;
}

/** What the request modals keep in private_metadata (read with readMetadata). */
export const modalMetaSchema = z.object({
  kind: z.enum(['transfer', 'offramp']),
  channel: z.string(),
  prefill: z
    .object({
      amount: z.string().optional(),
      entireBalance: z.boolean().optional(),
      asset: z.string().optional(),
      receiver: z.string().optional(),
      wallet: z.string().optional(),
      beneficiary: z.string().optional(),
      reason: z.string().optional(),
    })
    .optional(),
});

export const WALLET_ACTION = 'wallet';

const option = (text: string, value: string): PlainTextOption => ({ text: plain(text, 75), value });

export const assetLabel = (id: string): string => {
  const a = assetInfo(id as (typeof ASSET_IDS)[number]);
  return `${a.code} on ${CHAINS[a.chain].name} (${id})`;
};

/** A configured wallet as the modal lists it; `note` marks one that cannot do this job (item 17). */
export interface WalletChoice {
  alias: string;
  id: string;
  note?: string | undefined;
}

export function requestModal(
  meta: ModalMeta,
  wallets: readonly WalletChoice[],
  prefill: Prefill,
  assets?: AssetChoice[],
  /** SCHEDULE_ZONE: a series' runs are at a time in this zone unless the form says another. */
  zone = 'UTC',
): View {
  const walletOptions = wallets.map((w) => option(w.note ? `${w.alias} · ${w.note}` : w.alias, w.alias));
  const warnings = prefillWarnings(prefill, wallets);
  // A pre-fill that could not be used leaves its field empty, never a default.
  const initialWallet = prefill.wallet
    ? walletOptions.find((o) => o.value === prefill.wallet)
    : walletOptions.find((o) => !wallets.find((w) => w.alias === o.value)?.note);
  const choices: AssetChoice[] = assets ?? ASSET_IDS.map((id) => ({ id }));
  const assetOptions = choices.map((a) => option(a.note ? `${assetLabel(a.id)} · ${a.note}` : assetLabel(a.id), a.id));
  const initialAsset = assetOptions.find((o) => o.value === prefill.asset);
  const amount = prefill.amount && !amountTextProblem(prefill.amount) ? prefill.amount : undefined;
  const blocks: KnownBlock[] = [
    ...(warnings.length > 0 ? [section(warnings.map((w) => `:warning: ${esc(w)}`).join('\n'))] : []),
    // dispatch_action: choosing a wallet refreshes the asset list with what it holds.
    input(
      'wallet',
      'From wallet',
      {
        type: 'static_select',
        placeholder: plain('Choose a wallet'),
        options: walletOptions,
        ...(initialWallet ? { initial_option: initialWallet } : {}),
      },
      { dispatch_action: true },
    ),
    input('asset', 'Asset', {
      type: 'static_select',
      placeholder: plain('Choose chain and token'),
      options: assetOptions,
      ...(initialAsset ? { initial_option: initialAsset } : {}),
    }),
    input(
      'amount',
      'Amount',
      {
        type: 'plain_text_input',
        placeholder: plain('e.g. 250.00'),
        ...(amount ? { initial_value: amount } : {}),
      },
      {
        optional: meta.kind === 'transfer',
        hint: plain(
          meta.kind === 'transfer'
            ? 'An exact amount; empty only when you tick “or send the entire available balance” below.'
            : 'Exact decimal amount in the asset, no more decimals than it has.',
          2000,
        ),
      },
    ),
  ];
  if (meta.kind === 'transfer') {
    // One either/or; the number is sealed at submission.
    const entire = option(entireBalanceText(choices, prefill.asset, assets !== undefined), 'entire');
    blocks.push(
      input(
        'entire',
        'Instead of an amount',
        { type: 'checkboxes', options: [entire], ...(prefill.entireBalance ? { initial_options: [entire] } : {}) },
        { optional: true },
      ),
      input('receiver', 'Receiver address', {
        type: 'plain_text_input',
        placeholder: plain('0x… or a Solana address'),
        ...(prefill.receiver ? { initial_value: prefill.receiver } : {}),
      }),
    );
  } else {
    // Searchable: options come from Rampart's registry through block_suggestion.
    blocks.push(
      input('beneficiary', 'Beneficiary', {
        type: 'external_select',
        placeholder: plain('Search by name, bank, id or last digits'),
        min_query_length: 0,
      }),
      {
        type: 'actions',
        block_id: 'beneficiary_actions',
        elements: [
          { type: 'button', action_id: NEW_BENEFICIARY_ACTION, text: plain('New beneficiary…', 75), value: 'new' },
          // One the service already has, registered as stated.
          {
            type: 'button',
            action_id: EXISTING_BENEFICIARY_ACTION,
            text: plain('Use an existing beneficiary id…', 75),
            value: 'existing',
          },
        ],
      } as KnownBlock,
    );
  }
  blocks.push(
    input('reason', 'Reason', {
      type: 'plain_text_input',
      multiline: true,
      placeholder: plain('e.g. vendor invoice 118'),
      ...(prefill.reason ? { initial_value: prefill.reason } : {}),
    }),
    // When: now (empty) or a date and time in SCHEDULE_ZONE; the time is part of what is approved.
    // With a repeat, When is the first date a run may fall on.
    whenInput('it runs', '; not with “entire balance”. With a repeat: the first date a run may fall on, YYYY-MM-DD'),
    ...repeatInputs(zone),
    context(
      'Nothing moves until the approvals channel approves it. The amount is checked against the available balance when you submit.',
    ),
  );
  return {
    type: 'modal',
    callback_id: REQUEST_CALLBACK[meta.kind],
    // Whole JSON or a smaller one, never a cut string: the reason is the only
    // long pre-fill, and only the asset refresh needs it again.
    private_metadata: encodeMetadata(
      { ...meta, prefill },
      { ...meta, prefill: { ...prefill, reason: undefined } },
      { kind: meta.kind, channel: meta.channel },
    ),
    title: plain(meta.kind === 'transfer' ? 'New transfer' : 'New offramp', 24),
    submit: plain('Request approval', 24),
    close: plain('Cancel', 24),
    blocks,
  };
}
