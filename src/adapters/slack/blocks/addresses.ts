/**
 * `/addresses`: the address book's list, and the form that asks for one entry. Pure.
 */
import type { KnownBlock, View } from '@slack/types';
import type { AddressEntry } from '../../../domain/address-book.js';
import { CHAINS } from '../../../domain/assets.js';
import { fullAddress } from '../../../presenters/address.js';
import { encodeMetadata } from '../metadata.js';
import { code, context, esc, input, plain, section, slackDate } from './common.js';

export const ADDRESSES_CALLBACK = 'addresses_add';
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

/** The live entries first, then the removed ones; `now` decides "cooling" or "usable". */
export function addressListBlocks(entries: readonly AddressEntry[], mode: string, now: number): KnownBlock[] {
  const ordered = [
    ...entries.filter((e) => e.removedAt === undefined),
    ...entries.filter((e) => e.removedAt !== undefined),
  ];
  if (ordered.length === 0)
    return [section(`The address book is empty (DESTINATIONS=${mode}). Add an entry with \`/addresses add\`.`)];
  return [
    context(`DESTINATIONS=${mode} · ${ordered.length} entr${ordered.length === 1 ? 'y' : 'ies'}`),
    ...ordered.slice(0, LISTED).map((e) => section(entryLine(e, now))),
    ...(ordered.length > LISTED ? [context(`…and ${ordered.length - LISTED} more: \`rampart addresses list\``)] : []),
  ];
}

const text = (id: string, label: string, hint: string, extra: Record<string, unknown> = {}): KnownBlock =>
  input(id, label, { type: 'plain_text_input', ...extra }, { hint: plain(hint) });

export const addressModal = (meta: { channel?: string | undefined }): View => ({
  type: 'modal',
  callback_id: ADDRESSES_CALLBACK,
  private_metadata: encodeMetadata(meta, {}),
  title: plain('Address book entry', 24),
  submit: plain('Request approval', 24),
  close: plain('Cancel', 24),
  blocks: [
    text('name', 'Name', 'How people will recognise it, e.g. "Acme payroll wallet"', { max_length: 60 }),
    input('chain', 'Chain', {
      type: 'static_select',
      options: Object.entries(CHAINS).map(([id, c]) => ({ text: plain(c.name), value: id })),
    }),
    text('address', 'Address', 'Paste it whole; the card shows every character', { max_length: 100 }),
    {
      ...text('wallets', 'Wallets (optional)', 'Wallet aliases separated by commas; empty for every wallet'),
      optional: true,
    } as KnownBlock,
    {
      type: 'input',
      block_id: 'reason',
      label: plain('Reason'),
      element: { type: 'plain_text_input', action_id: 'reason', multiline: true },
    } as KnownBlock,
    context(
      ':lock: Adding is an approval: another approver must approve it (you cannot), and it cools off before anything can be paid to it.',
    ),
  ],
});
