/**
 * The two ways an address is shown. Short (first 6, last 4: `0x99ED…EdcF`) where the full one
 * would crowd a line — push text, lists, thread replies, App Home, the report, accessibility
 * labels. Full, grouped in fours, wherever someone decides on it — the card's To line, the Approve
 * confirmation, the passkey page, the Record outcome modal — because a poisoned lookalike is made
 * to match exactly the first 6 and last 4 characters.
 */
import { shortAddress as short } from '../domain/address.js';

/** `0x99ED…EdcF`; an address of 14 characters or fewer is shown whole. */
export const shortAddress = (address: string): string => short(address);

/**
 * `0x 99ED 4a1F …` — every character, in groups of four so a reader can compare it group by
 * group; the EVM `0x` prefix stands apart. Copying it back needs the spaces removed, so a
 * surface that offers copying also shows the address in code form.
 */
export function fullAddress(address: string): string {
  const evm = /^0x[0-9a-fA-F]+$/.test(address);
  const body = evm ? address.slice(2) : address;
  const groups = body.match(/.{1,4}/g) ?? [];
  return [...(evm ? ['0x'] : []), ...groups].join(' ');
}

/**
 * A vote on an approval that carries a lookalike, sent without the card's warnings confirmed: not
 * counted. Approve on the card asks the confirmation naming both addresses.
 */
export const unconfirmedText = (requestId: string): string =>
  `Your approval of ${requestId} was not counted: it pays a lookalike of a known address, and Approve on its card asks you to confirm you checked it. Compare both full addresses on the card, then click Approve again.`;
