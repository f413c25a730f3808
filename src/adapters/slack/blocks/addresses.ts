/**
 * `/addresses`: the address book's list with a Remove button per live entry, the form that asks
 * for one entry, and what the approvals channel hears of a removal. Pure.
 */
import type { KnownBlock, View } from '@slack/types';
import { type AddressEntry, entryLabel } from '../../../domain/address-book.js';
import { CHAINS } from '../../../domain/assets.js';
import { fullAddress } from '../../../presenters/address.js';
import { encodeMetadata } from '../metadata.js';
import { code, context, esc, input, plain, reasonInput, section, slackDate, spokenLabel, textInput } from './common.js';

export const ADDRESSES_CALLBACK = 'addresses_add';
/**
 * The Remove button of one live entry, `addresses_remove_A-12`: Slack wants each action_id once
 * per message, so the id is the suffix; the value is the entry id again, which the handler reads.
 */
export const ADDRESSES_REMOVE = 'addresses_remove';
export const ADDRESSES_REMOVE_PATTERN = /^addresses_remove_A-\d+$/;
export const removeActionId = (id: string): string => `${ADDRESSES_REMOVE}_${id}`;
const LISTED = 40;

function entryLine(e: AddressEntry, now: number): string {
  const wallets = e.wallets === '*' ? 'every wallet' : e.wallets.map(esc).join(', ');
  const state =
    e.removedAt !== undefined
      ? `removed by <@${e.removedBy ?? ''}>`
      : now < e.usableAt
        ? `cooling off, usable from ${slackDate(e.usableAt)}`
        : `usable since ${slackDate(e.usableAt)}`;
  return `*${esc(e.name)}* (${e.id}) on ${CHAINS[e.chain]?.name ?? esc(e.chain)}: ${code(fullAddress(e.address))}\nfrom ${wallets} · added by <@${e.addedBy}>, approved by <@${e.approvedBy}> · ${state}`;
}

const payments = (n: number): string => `${n} payment${n === 1 ? '' : 's'}`;

/**
 * Any approver may remove a live entry (the use case checks who clicked); the confirmation names
 * the entry and what the removal stops, since it cancels everything sealed with it and unsent.
 */
function removeButton(e: AddressEntry, unsent: number) {
  return {
    type: 'button',
    action_id: removeActionId(e.id),
    style: 'danger',
    text: plain('Remove', 75),
    accessibility_label: spokenLabel(
      `Remove ${e.name} (${e.id}) from the address book`,
      `Remove ${e.name} (${e.id})`,
      // A name is at most 60 characters (domain/address-book.ts), so this one always fits.
      `Remove ${e.name}`,
    ),
    value: e.id,
    confirm: {
      title: plain('Remove this entry?', 100),
      text: plain(
        `${entryLabel(e)} (${e.id}) leaves the address book at once. It stops ${payments(unsent)} not yet sent to it, and the address is refused until it is added and cooled off again.`,
        300,
      ),
      confirm: plain('Remove', 30),
      deny: plain('Back', 30),
      style: 'danger',
    },
  };
}

const entryBlock = (e: AddressEntry, now: number, unsent: ReadonlyMap<string, number>): KnownBlock =>
  e.removedAt !== undefined
    ? section(entryLine(e, now))
    : ({
        ...section(entryLine(e, now)),
        block_id: e.id,
        accessory: removeButton(e, unsent.get(e.id) ?? 0),
      } as KnownBlock);

/**
 * The live entries first (each with its Remove button), then the removed ones; `now` decides
 * "cooling" or "usable"; `unsent` counts the payments not yet sent to each entry.
 */
export function addressListBlocks(
  entries: readonly AddressEntry[],
  mode: string,
  now: number,
  unsent: ReadonlyMap<string, number> = new Map(),
): KnownBlock[] {
  const ordered = [
    ...entries.filter((e) => e.removedAt === undefined),
    ...entries.filter((e) => e.removedAt !== undefined),
  ];
  if (ordered.length === 0)
    return [section(`The address book is empty (DESTINATIONS=${mode}). Add an entry with \`/addresses add\`.`)];
  return [
    context(`DESTINATIONS=${mode} · ${ordered.length} entr${ordered.length === 1 ? 'y' : 'ies'}`),
    ...ordered.slice(0, LISTED).map((e) => entryBlock(e, now, unsent)),
    ...(ordered.length > LISTED ? [context(`…and ${ordered.length - LISTED} more: \`rampart addresses list\``)] : []),
  ];
}

export const addressModal = (meta: { channel?: string | undefined }): View => ({
  type: 'modal',
  callback_id: ADDRESSES_CALLBACK,
  private_metadata: encodeMetadata(meta, {}),
  title: plain('Address book entry', 24),
  submit: plain('Request approval', 24),
  close: plain('Cancel', 24),
  blocks: [
    textInput('name', 'Name', 'How people will recognise it, e.g. "Acme payroll wallet"', { max_length: 60 }),
    input('chain', 'Chain', {
      type: 'static_select',
      options: Object.entries(CHAINS).map(([id, c]) => ({ text: plain(c.name), value: id })),
    }),
    textInput('address', 'Address', 'Paste it whole; the card shows every character', { max_length: 100 }),
    {
      ...textInput('wallets', 'Wallets (optional)', 'Wallet aliases separated by commas; empty for every wallet'),
      optional: true,
    } as KnownBlock,
    reasonInput(),
    context(
      ':lock: Adding is an approval: another approver must approve it (you cannot), and it cools off before anything can be paid to it.',
    ),
  ],
});

/** What the approvals channel hears when an approver removes an entry from Slack. */
export const removedNotice = (e: AddressEntry, by: string, unsent: number): string =>
  `:no_entry_sign: <@${by}> removed ${esc(entryLabel(e))} (${e.id}) from the address book; it stops ${payments(unsent)} not yet sent to it.`;
