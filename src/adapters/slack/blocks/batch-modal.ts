/** The /batch modal, its templates and its answers. Pure builders. */
import type { KnownBlock, PlainTextOption, View } from '@slack/types';
import { z } from 'zod';
import { ASSET_IDS } from '../../../domain/assets.js';
import { BATCH_KINDS, type BatchKind } from '../../../domain/batch-cells.js';
import { plural } from '../../../domain/words.js';
import { encodeMetadata } from '../metadata.js';
import { context, esc, input, plain, section } from './common.js';
import { assetLabel, WALLET_ACTION } from './request-modal.js';
import { whenInput } from './when-input.js';

export const BATCH_CALLBACK = 'batch_modal';
export const BATCH_FILE_TYPES = ['csv'] as const;
/** The file field's block id once the form was re-rendered with a problem. */
export const BATCH_FILE_AGAIN = 'file_again';

export const batchMetaSchema = z.object({ channel: z.string() });

const option = (text: string, value: string): PlainTextOption => ({ text: plain(text, 75), value });

const KIND_LABEL: Record<BatchKind, string> = {
  transfers: 'Transfers (to wallet addresses)',
  offramps: 'Offramps (to approved bank beneficiaries)',
};

/** What a re-rendered form keeps: every choice but the file, and the problem. */
export interface BatchModalPrior {
  kind?: string | undefined;
  wallet?: string | undefined;
  asset?: string | undefined;
  reason?: string | undefined;
  /** Shown above the (now empty) file field: what to fix before uploading again. */
  problem?: string | undefined;
}

/**
 * Choosing a wallet redraws the asset list with what it holds (adapters/slack/batch-choices.ts),
 * through the request form's wallet action (one listener per action id).
 */
export const BATCH_WALLET_ACTION = WALLET_ACTION;

/** A wallet as the form lists it: marked when it cannot pay ("inactive", "transfers off"). */
export interface BatchWalletChoice {
  alias: string;
  note?: string | undefined;
}

/** An asset the chosen wallet holds, with its available amount ("120,000.50 available"). */
export interface BatchAssetChoice {
  id: string;
  note?: string | undefined;
}

/**
 * As the transfer form: wallets that cannot pay are marked and never chosen by default, and once
 * a wallet is chosen the assets are those it holds, each with its available amount (`assets`).
 */
export function batchModal(
  meta: { channel: string },
  wallets: readonly BatchWalletChoice[],
  prior: BatchModalPrior = {},
  assets?: readonly BatchAssetChoice[],
): View {
  const walletOptions = wallets.map((w) => option(w.note ? `${w.alias} · ${w.note}` : w.alias, w.alias));
  const kindOptions = BATCH_KINDS.map((k) => option(KIND_LABEL[k], k));
  const choices: readonly BatchAssetChoice[] = assets ?? ASSET_IDS.map((id) => ({ id }));
  const assetOptions = choices.map((a) => option(a.note ? `${assetLabel(a.id)} · ${a.note}` : assetLabel(a.id), a.id));
  const initial = (options: PlainTextOption[], value: string | undefined) => {
    const found = options.find((o) => o.value === value);
    return found ? { initial_option: found } : {};
  };
  const usable = walletOptions.find((o) => !wallets.find((w) => w.alias === o.value)?.note);
  const wallet = prior.wallet ? walletOptions.find((o) => o.value === prior.wallet) : usable;
  return {
    type: 'modal',
    callback_id: BATCH_CALLBACK,
    private_metadata: encodeMetadata(meta),
    title: plain('New batch payout', 24),
    submit: plain('Check the file', 24),
    close: plain('Cancel', 24),
    blocks: [
      input('kind', 'Kind', { type: 'radio_buttons', options: kindOptions, ...initial(kindOptions, prior.kind) }),
      input(
        'wallet',
        'From wallet',
        {
          type: 'static_select',
          action_id: BATCH_WALLET_ACTION,
          placeholder: plain('Choose a wallet'),
          options: walletOptions,
          ...(wallet ? { initial_option: wallet } : {}),
        },
        { dispatch_action: true },
      ),
      input('asset', 'Asset', {
        type: 'static_select',
        placeholder: plain('Choose chain and token'),
        options: assetOptions,
        ...initial(assetOptions, prior.asset),
      }),
      ...(prior.problem ? [section(`:warning: ${esc(prior.problem)}`.slice(0, 3000))] : []),
      // https://docs.slack.dev/reference/block-kit/block-elements/file-input-element (files:read)
      // A new block id empties the field: Slack keeps an input's value across views.update otherwise.
      input(prior.problem ? BATCH_FILE_AGAIN : 'file', 'CSV file', {
        type: 'file_input',
        filetypes: [...BATCH_FILE_TYPES],
        max_files: 1,
      }),
      input(
        'reason',
        'Reason',
        {
          type: 'plain_text_input',
          multiline: true,
          placeholder: plain('e.g. November vendor run'),
          ...(prior.reason ? { initial_value: prior.reason } : {}),
        },
        { optional: true },
      ),
      // When: now (empty) or a date and time in SCHEDULE_ZONE; the time is part of what is approved.
      whenInput('the rows run'),
      context(
        'Every row is checked before anything is posted. `/batch template` shows the columns; the header is row 1, so row numbers match your spreadsheet.',
      ),
    ],
  };
}

export const BATCH_TEMPLATES: Readonly<Record<BatchKind, string>> = {
  transfers: 'receiver,amount,reference\n0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,250.00,INV-118\n',
  offramps: 'beneficiary,amount,reference\nben_4c1d9e,150000,Payroll Nov\nAcme Supplies,20000.50,INV-7\n',
};

/** `/batch template`: each kind's columns and an example, answered only to the person who asked. */
export const batchTemplateText = (): string =>
  [
    '*Batch files* are CSV (UTF-8, a comma between values) with a header row; columns in any order, `reference` optional and kept by Rampart only.',
    `*Transfers*\n\`\`\`${BATCH_TEMPLATES.transfers}\`\`\``,
    `*Offramps* (\`beneficiary\` is an approved beneficiary's id or unique label from \`/beneficiary list\`)\n\`\`\`${BATCH_TEMPLATES.offramps}\`\`\``,
    'Amounts are exact (a point for decimals, commas only between thousands); no cell may start with = + - or @.',
  ].join('\n\n');

export const BATCH_USAGE =
  'Usage: `/batch` opens a form to pay many rows from one CSV file with one approval; `/batch template` shows the columns of each kind.';

/** Longest text Rampart puts under the file field; longer lists go to a message. */
const FIELD_LIMIT = 400;

const rowList = (rows: readonly number[]): string => {
  const shown = rows.slice(0, 5).map(String);
  const more = rows.length - shown.length;
  if (more > 0) return `rows ${shown.join(', ')} and ${more} more`;
  return shown.length === 1 ? `row ${shown[0]}` : `rows ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
};

/** What the file field says; `fits` false means the full list must also be sent as a message. */
export function batchFieldError(fileErrors: readonly string[], rowErrors: readonly { row: number; message: string }[]) {
  const all = [...fileErrors, ...rowErrors.map((e) => e.message)];
  const rows = [...new Set(rowErrors.map((e) => e.row))];
  const ask = rows.length > 0 ? `\nFix ${rowList(rows)} and upload again.` : '';
  // One problem a line: run together they read as one sentence.
  const whole = `${all.join('\n')}${ask}`;
  if (whole.length <= FIELD_LIMIT) return { text: whole, fits: true };
  const first = all[0] ?? '';
  const lead = first.length > 200 ? `${first.slice(0, 199)}…` : first;
  return {
    text: `${lead} (${all.length} problems in all; the full list is in a message from Rampart.)${ask}`,
    fits: false,
  };
}

/** Every problem, as messages of at most 45 sections of ~2,900 characters (Slack's limits). */
export function batchProblemMessages(fileName: string, problems: readonly string[]): KnownBlock[][] {
  const sections: string[] = [];
  let current = '';
  for (const p of problems) {
    const line = `• ${esc(p)}`;
    if (current.length + line.length + 1 > 2900 && current !== '') {
      sections.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') sections.push(current);
  const messages: KnownBlock[][] = [];
  for (let i = 0; i < sections.length; i += 45) messages.push(sections.slice(i, i + 45).map(section));
  messages[0]?.unshift(
    section(
      `*${plural(problems.length, 'problem')} in ${fileName}*; nothing was submitted. Fix them and upload the file again.`,
    ),
  );
  return messages;
}

/** The modal once a file passed every check but approvals cannot be created in this build yet. */
export function batchUnavailableModal(summary: string): View {
  return {
    type: 'modal',
    title: plain('New batch payout', 24),
    close: plain('Close', 24),
    blocks: [section('*Batch approvals are not enabled yet in this build.* Nothing was submitted.'), section(summary)],
  };
}
