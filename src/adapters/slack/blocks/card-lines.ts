/**
 * The "what runs" lines of an open approval card: amount, chain, from, to — each destination
 * with where it came from (typed by whom, checksum, bank lookup and when).
 * Pure.
 */
import { toChecksumAddress } from '../../../domain/address.js';
import { CHAINS, type ChainId, explorerAddressUrl } from '../../../domain/assets.js';
import type { Destination, HolderSource } from '../../../domain/destination.js';
import type { SealedRequest } from '../../../domain/request.js';
import { fullAddress, shortAddress } from '../../../presenters/address.js';
import { assetCode, formatAmountText } from '../../../presenters/money.js';
import { registrationLines, statedPayeeLine } from './card-registration.js';
import { code, esc, link, slackDate } from './common.js';

function chainOf(f: SealedRequest): ChainId | undefined {
  const c = f.display.chain;
  return c && c in CHAINS ? (c as ChainId) : undefined;
}

/** Only a name the service's lookup returned is called verified (invariant 7). */
function vouched(source: HolderSource | undefined, requester: string, at?: number): string | undefined {
  if (source === 'lookup') return `verified by bank lookup${at ? ` ${slackDate(at)}` : ''}`;
  if (source === 'typed') return `typed by <@${requester}>, not verified`;
  return undefined;
}

export function holderLine(name: string, source: HolderSource | undefined, requester: string, at?: number): string {
  const how = vouched(source, requester, at);
  return `*Holder:* ${esc(name)}${how ? ` _(${how})_` : ''}`;
}

/** The holder's name once: on the label's line when the label already says it (item 8). */
function payeeLines(label: string, holder: string | undefined, f: SealedRequest): string[] {
  const { display } = f;
  if (holder && label.toLowerCase().includes(holder.toLowerCase())) {
    const how = vouched(display.holderSource, f.requester, display.holderCheckedAt);
    return [`*To beneficiary:* ${esc(label)}${how ? ` _(holder name ${how})_` : ''}`];
  }
  const lines = [`*To beneficiary:* ${esc(label)}`];
  if (holder) lines.push(holderLine(holder, display.holderSource, f.requester, display.holderCheckedAt));
  return lines;
}

/** Enough of a cross-border destination to check it: country, bank codes, masked account. */
function destinationLine(d: Destination): string {
  const parts = [
    d.country ? `*Country:* ${esc(d.country)}` : '',
    ...d.codes.map((c) => `*${esc(c.label)}:* ${code(c.value)}`),
    d.account ? `*${esc(d.account.label)}:* ${code(d.account.masked)}` : '',
  ].filter(Boolean);
  return parts.join('  ·  ');
}

/** What vouches for a typed address: its EIP-55 checksum, or only its format. */
function addressProof(chain: ChainId | undefined, address: string): string {
  if (!chain) return 'not checked';
  if (CHAINS[chain].kind === 'svm') return 'valid Solana address';
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return 'no checksum (all one case)';
  return toChecksumAddress(address) === address ? 'EIP-55 checksum valid' : 'checksum does not match';
}

/** Who put the address here: a person typed it, or an API key (named, with its owner) sent it. */
function provenance(f: SealedRequest): string {
  const api = f.display.viaApi;
  return api ? `from API key ${esc(api.keyName)} (owner <@${api.owner}>)` : `typed by <@${f.requester}>`;
}

const NAIRA = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "≈ ₦766,375 at ₦1,532.75 per USDC"; indicative only, the payout uses the service's rate. */
export function nairaLine(f: SealedRequest): string | undefined {
  const { call, display } = f;
  if (call.kind !== 'offramp' || !display.indicativeRate || display.assetCode === 'cNGN') return undefined;
  const naira = call.body.amount * display.indicativeRate;
  return `*Indicative:* ≈ ₦${NAIRA.format(naira)} at ₦${RATE.format(display.indicativeRate)} per ${esc(display.assetCode ?? '')} (onramp rate at submission; the payout uses the service's rate)`;
}

function amountLine(f: SealedRequest, chain: ChainId | undefined): string {
  const { call, display } = f;
  if (call.kind !== 'transfer' && call.kind !== 'offramp') return '';
  const code = esc(display.assetCode ?? assetCode(call.body.asset));
  const amount =
    call.body.amount === -1
      ? '*entire available balance (amount not fixed)*'
      : display.entireBalance
        ? `All available at submission: *${esc(display.amountText ?? '')}* ${code}`
        : `*${esc(display.amountText ?? formatAmountText(String(call.body.amount)))}* ${code}`;
  return `*Amount:* ${amount}  ·  *Chain:* ${chain ? CHAINS[chain].name : call.body.asset}  (\`${call.body.asset}\`)`;
}

export function whatLines(f: SealedRequest): string[] {
  const { call, display } = f;
  const chain = chainOf(f);
  const lines: string[] = [];
  if (call.kind === 'register-beneficiary') return registrationLines(f);
  if (call.kind === 'address-book') return [...entryLookalikeLines(f), ...addressBookLines(call.body.entries)];
  if (call.kind === 'beneficiary') {
    lines.push(`*Identity:* ${esc(display.identityLabel ?? call.body.identity_id)}`);
    lines.push(`*Bank account:* ${esc(display.beneficiaryLabel ?? '')}`);
    if (display.holderName) lines.push(holderLine(display.holderName, display.holderSource, f.requester));
    if (display.destination) lines.push(destinationLine(display.destination));
    return lines;
  }
  lines.push(amountLine(f, chain));
  const from =
    display.walletAddress && chain
      ? ` ${link(explorerAddressUrl(chain, display.walletAddress), shortAddress(display.walletAddress))}`
      : '';
  lines.push(`*From:* ${esc(display.walletAlias ?? call.body.wallet_id)}${from}`);
  if (call.kind === 'transfer') {
    // Every character, grouped in fours: a poisoned lookalike matches exactly the first 6 and last 4.
    const grouped = fullAddress(call.body.receiver);
    const address = chain ? link(explorerAddressUrl(chain, call.body.receiver), grouped) : code(grouped);
    if (display.ownWallet) lines.push(`*To:* ${esc(display.ownWallet)} (own wallet) ${address}`);
    else lines.push(`*To:* ${address}\n_${provenance(f)} · ${addressProof(chain, call.body.receiver)}_`);
    if (display.bookEntry) lines.push(bookEntryLine(display.bookEntry));
    if (display.lookalike)
      lines.unshift(
        `:warning: *Lookalike:* this address looks like ${esc(display.lookalike.of)} (same first 6 and last 4 characters) but is not it:\n• paying: ${code(fullAddress(call.body.receiver))}\n• known:  ${code(fullAddress(display.lookalike.ofAddress))}`,
      );
    if (display.outsideBook && !display.ownWallet)
      lines.unshift(':warning: *Not in the address book*: a new destination. Check it with the payee.');
    if (display.newReceiver && !display.ownWallet)
      lines.push(
        display.viaApi
          ? // a key created with --allow-new-destinations; said in bold on the card.
            ':warning: *new destination via API*: Rampart has never paid this address before. Check it with the payee.'
          : ':warning: *Rampart has never paid this address before.* Check it with the payee.',
      );
  } else {
    lines.push(...payeeLines(display.beneficiaryLabel ?? call.body.beneficiary_id, display.holderName, f));
    const stated = statedPayeeLine(display);
    if (stated) lines.push(stated);
    if (display.bookEntry) lines.push(bookEntryLine(display.bookEntry));
    const naira = nairaLine(f);
    if (naira) lines.push(naira);
  }
  if (display.availableBefore)
    lines.push(
      `*Available:* ${esc(display.availableBefore)} → ${esc(display.availableAfter ?? '?')} ${esc(display.assetCode ?? '')}`,
    );
  return lines;
}

/** Entries that look like a known destination: both full addresses, before anything else. */
function entryLookalikeLines(f: SealedRequest): string[] {
  return (f.display.entryLookalikes ?? [])
    .slice(0, 10)
    .map(
      (l) =>
        `:warning: *Lookalike:* entry ${l.row} looks like ${esc(l.of)} (same first 6 and last 4 characters) but is not it:\n• adding: ${code(fullAddress(l.address))}\n• known:  ${code(fullAddress(l.ofAddress))}`,
    );
}

/** An address-book addition's card: every entry in full (a lookalike differs only in the middle). */
function addressBookLines(
  entries: readonly { name: string; chain: string; address: string; wallets: '*' | string[] }[],
): string[] {
  return [
    `*Add to the address book* (${entries.length === 1 ? '1 entry' : `${entries.length} entries`}; usable after the cooling-off):`,
    ...entries
      .slice(0, 40)
      .map(
        (e) =>
          `• *${esc(e.name)}* on ${esc(e.chain)}: ${code(fullAddress(e.address))} · from ${e.wallets === '*' ? 'every wallet' : esc(e.wallets.join(', '))}`,
      ),
    ...(entries.length > 40 ? [`…and ${entries.length - 40} more (see \`rampart addresses list\`)`] : []),
  ];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "address book: Acme payroll wallet, added by @ayo 2026-11-20, approved by @amara; usable from …". */
function bookEntryLine(e: NonNullable<SealedRequest['display']['bookEntry']>): string {
  // A date Slack draws in the reader's zone: true before the cooling-off ends and after it.
  const usable = `usable from ${slackDate(e.usableAt)}`;
  if (e.beneficiary)
    return `_new beneficiary: *${esc(e.name)}*, registered by <@${e.addedBy}> ${day(e.approvedAt)}, approved by <@${e.approvedBy}>; ${usable}_`;
  return `_address book: *${esc(e.name)}*, added by <@${e.addedBy}> ${day(e.approvedAt)}, approved by <@${e.approvedBy}>; ${usable}_`;
}
