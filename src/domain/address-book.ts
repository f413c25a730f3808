/**
 * The address book: destinations approved once, usable after a cooling-off, removable at once.
 * An entry is one chain and one address (an EVM entry on Base does not cover Ethereum: a contract
 * may exist on one chain only), identified by its destination key (domain/destination-key.ts).
 * A re-added address is a new entry with a new id, so nothing sealed against the old one can
 * ever be satisfied by it. Pure.
 */
import { shortAddress } from './address.js';
import { CHAINS, type ChainId } from './assets.js';
import { destinationKey } from './destination-key.js';
import type { BookEntryFacts, RequestRecord } from './request.js';

/** `open` is the behaviour before the book; `warn` flags outside addresses; `book` pays only entries. */
export const DESTINATION_MODES = ['open', 'warn', 'book'] as const;
export type DestinationMode = (typeof DESTINATION_MODES)[number];

/** What an addition asks for: one address on one chain, payable from every wallet or some. */
export interface EntryInput {
  name: string;
  chain: ChainId;
  address: string;
  /** '*' for every configured wallet, or wallet ids. */
  wallets: '*' | readonly string[];
}

/** An entry as stored once its addition was approved. */
export interface AddressEntry extends EntryInput {
  /** `A-<n>`: no '#' or ':' (DESIGN ids). */
  id: string;
  key: string;
  addedBy: string;
  approvedBy: string;
  /** The approval that added it. */
  requestId: string;
  approvedAt: number;
  usableAt: number;
  removedAt?: number;
  removedBy?: string;
}

const NAME_MAX = 60;

/**
 * The input a problem with an entry is about: each door says it where that input is typed (the
 * form's field, a file's column). `entries`: the addition as a whole (none, or too many).
 */
export type EntryField = 'name' | 'chain' | 'address' | 'wallets' | 'entries';

/** What is wrong with one entry: the input it is about, and one sentence. */
export interface EntryProblem {
  field: EntryField;
  message: string;
}

/** What is wrong with an entry as typed, or undefined. */
export function entryProblem(input: { name: string; chain: string; address: string }): EntryProblem | undefined {
  const name = input.name.trim();
  if (name === '') return { field: 'name', message: 'The entry needs a name, such as "Acme payroll wallet".' };
  if (name.length > NAME_MAX)
    return { field: 'name', message: `The name is ${name.length} characters; keep it to ${NAME_MAX}.` };
  if (!Object.hasOwn(CHAINS, input.chain))
    return {
      field: 'chain',
      message: `"${input.chain}" is not a chain Rampart knows; use one of ${Object.keys(CHAINS).join(', ')}.`,
    };
  try {
    destinationKey(input.chain as ChainId, input.address);
  } catch (err) {
    return { field: 'address', message: err instanceof Error ? err.message : 'The address is not valid.' };
  }
  return undefined;
}

/** Can a payment from `walletId` use this entry? */
export const allowsWallet = (entry: Pick<EntryInput, 'wallets'>, walletId: string): boolean =>
  entry.wallets === '*' || entry.wallets.includes(walletId);

/** `*` or comma-separated ids: the stored form the start script reads. */
export const walletsField = (wallets: EntryInput['wallets']): string =>
  wallets === '*' ? '*' : `,${wallets.join(',')},`;

export const walletsOfField = (field: string): EntryInput['wallets'] =>
  field === '*' ? '*' : field.split(',').filter((w) => w !== '');

/** "Acme payroll wallet 0x99ED…EdcF". */
export const entryLabel = (e: Pick<EntryInput, 'name' | 'address'>): string => `${e.name} ${shortAddress(e.address)}`;

/** What the book says about one destination at submission. */
export type BookStanding =
  | { kind: 'entry'; entry: AddressEntry }
  | { kind: 'removed'; entry: AddressEntry }
  | { kind: 'own-wallet' }
  | { kind: 'none' };

/** Where an entry stands at `now`: cooling until usableAt, then usable; removed is final. */
export function entryState(entry: AddressEntry, now: number): 'usable' | 'cooling' | 'removed' {
  if (entry.removedAt !== undefined) return 'removed';
  return now < entry.usableAt ? 'cooling' : 'usable';
}

/**
 * The submission's verdict for a single payment, a batch row or a series' run. `waits`: a single
 * payment to a cooling entry is accepted and waits in its start script; a row never holds its
 * batch, nor a run its series.
 */
export type DestinationVerdict =
  | { ok: true; warnNew?: true; waitsUntil?: number }
  | { ok: false; code: 'not_in_book' | 'entry_removed' | 'entry_cooling' | 'wallet_not_in_entry'; message: string };

export const NOT_IN_BOOK_SENTENCE =
  'This address is not in the address book: ask an approver to add it with /addresses add (or `rampart addresses add`), then request again once it is usable.';

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What never waits for a cooling-off: a batch row (left out of its batch) or a series' run (skipped). */
export type NoWait = 'row' | 'run';

/** What the reader does about a cooling-off that a row or a run does not wait for. */
const notWaiting = (as: NoWait): string =>
  as === 'row' ? 'leave this row out and pay it after then.' : 'this run is skipped and the later runs go on.';

/** The rule every submission door asks, by mode, for one destination. */
export function destinationRule(
  mode: DestinationMode,
  standing: BookStanding,
  subject: { walletId: string; as: 'single' | NoWait },
  now: number,
): DestinationVerdict {
  if (standing.kind === 'own-wallet') return { ok: true };
  if (standing.kind === 'removed')
    return {
      ok: false,
      code: 'entry_removed',
      message: `${entryLabel(standing.entry)} was removed from the address book by <@${standing.entry.removedBy ?? ''}>: add it again with /addresses add and wait for it to cool off before paying it.`,
    };
  if (standing.kind === 'none') {
    if (mode === 'book') return { ok: false, code: 'not_in_book', message: NOT_IN_BOOK_SENTENCE };
    return mode === 'warn' ? { ok: true, warnNew: true } : { ok: true };
  }
  const { entry } = standing;
  if (!allowsWallet(entry, subject.walletId))
    return {
      ok: false,
      code: 'wallet_not_in_entry',
      message: `${entryLabel(entry)} may not be paid from wallet ${subject.walletId}: choose one of ${(entry.wallets as readonly string[]).join(', ')}, or add the address again for this wallet with /addresses add.`,
    };
  if (entryState(entry, now) === 'usable') return { ok: true };
  if (subject.as !== 'single')
    return {
      ok: false,
      code: 'entry_cooling',
      message: `${entryLabel(entry)} is still cooling off and becomes usable ${utc(entry.usableAt)}: ${notWaiting(subject.as)}`,
    };
  return { ok: true, waitsUntil: entry.usableAt };
}

/** A batch row or a series' run to a new beneficiary still cooling off (neither waits): refused with the time. */
export const beneficiaryCoolingSentence = (label: string, usableAt: number, as: NoWait): string =>
  `${label} is a new beneficiary that is still cooling off and becomes usable ${utc(usableAt)}: ${notWaiting(as)}`;

/** The approvals channel's and each approver's notice when an entry starts cooling off. */
export const coolingNotice = (entry: AddressEntry): string =>
  `${entryLabel(entry)} becomes usable ${utc(entry.usableAt)}: added by <@${entry.addedBy}>, approved by <@${entry.approvedBy}>. Remove it if you did not expect this.`;

/**
 * What the start script decides for an execution sealed with an entry (store/approval-lua.ts
 * START mirrors it): removed or replaced → cancelled; wallet not allowed → cancelled; cooling →
 * wait, unless the payment has waited ADDRESS_COOLDOWN since its approval → cancelled.
 */
export function entryStartRule(
  entry: Pick<AddressEntry, 'id' | 'removedAt' | 'usableAt' | 'wallets' | 'approvedAt'> | undefined,
  sealed: { entryId: string; walletId: string; approvedAt: number },
  now: number,
):
  | { ok: true }
  | { ok: false; code: 'entry_removed' | 'wallet_not_in_entry' | 'entry_cooling_over' }
  | { wait: number } {
  if (!entry || entry.id !== sealed.entryId || entry.removedAt !== undefined)
    return { ok: false, code: 'entry_removed' };
  if (!allowsWallet(entry, sealed.walletId)) return { ok: false, code: 'wallet_not_in_entry' };
  if (now >= entry.usableAt) return { ok: true };
  const cooldown = entry.usableAt - entry.approvedAt;
  if (now > sealed.approvedAt + cooldown) return { ok: false, code: 'entry_cooling_over' };
  return { wait: entry.usableAt - now };
}

/**
 * An offramp's start to a new beneficiary (registered with a cooling-off outside
 * DESTINATIONS=open), as includes/book.lua beneficiaryCheck decides it: the entry's wait, for a
 * beneficiary. A batch row never waits: cooling, it is cancelled (code entry_cooling).
 */
export function beneficiaryStartRule(
  cooling: { approvedAt: number; usableAt: number } | undefined,
  sealed: { approvedAt: number; row: boolean },
  now: number,
): { ok: true } | { ok: false; code: 'entry_cooling' | 'entry_cooling_over' } | { wait: number } {
  if (!cooling || now >= cooling.usableAt) return { ok: true };
  if (now > sealed.approvedAt + (cooling.usableAt - cooling.approvedAt))
    return { ok: false, code: 'entry_cooling_over' };
  if (sealed.row) return { ok: false, code: 'entry_cooling' };
  return { wait: cooling.usableAt - now };
}

/** A destination that may be mistaken for this one: an entry, an address paid before, a recent one. */
export interface KnownDestination {
  /** Its destination key (domain/destination-key.ts). */
  key: string;
  /** "Acme payroll wallet 0x99ED…EdcF", or "paid before 0x99ED…EdcF". */
  label: string;
  address: string;
}

const LOOK_HEAD = 6;
const LOOK_TAIL = 4;

/** How far back a destination requested (paid or not) still counts as known: the last 90 days. */
export const RECENT_DESTINATIONS_MS = 90 * 86_400_000;

/**
 * The address-poisoning pattern: same first 6 and last 4 characters as a known destination (by
 * destination key, so an EVM address in any case), without being it. Returns the first such
 * known destination, or undefined.
 */
export function lookalikeOf(key: string, known: readonly KnownDestination[]): KnownDestination | undefined {
  const body = (k: string) => k.slice(k.indexOf(':') + 1);
  const mine = body(key);
  if (mine.length < LOOK_HEAD + LOOK_TAIL) return undefined;
  const family = key.slice(0, key.indexOf(':'));
  return known.find((k) => {
    if (k.key === key || k.key.slice(0, k.key.indexOf(':')) !== family) return false;
    const other = body(k.key);
    return other.slice(0, LOOK_HEAD) === mine.slice(0, LOOK_HEAD) && other.slice(-LOOK_TAIL) === mine.slice(-LOOK_TAIL);
  });
}

/**
 * The entry an approved single waits for: approved before its entry's cooling-off ended, so the
 * start script starts it no earlier. Undefined when it does not wait (or is not approved).
 */
export function coolingEntry(
  record: Pick<RequestRecord, 'state' | 'decidedAt'> & { sealed: { display: { bookEntry?: BookEntryFacts } } },
): BookEntryFacts | undefined {
  const e = record.sealed.display.bookEntry;
  return record.state === 'approved' && e && e.usableAt > (record.decidedAt ?? 0) ? e : undefined;
}

/** The reply in an entry's cooling-notice thread for each payment that waits for it. */
export const waitsForEntryReply = (requestId: string): string =>
  `${requestId} waits for this entry: it runs once the entry is usable, and is cancelled if the entry is removed first.`;

/**
 * Whether a vote on this approval must confirm a lookalike: a payment to one, a batch with a
 * lookalike row, or an address-book addition with a lookalike entry (each named on its card).
 */
export function mustConfirmLookalike(display: {
  lookalike?: unknown;
  entryLookalikes?: readonly unknown[];
  batch?: { lookalikes?: readonly unknown[] };
}): boolean {
  return (
    display.lookalike !== undefined ||
    (display.entryLookalikes?.length ?? 0) > 0 ||
    (display.batch?.lookalikes?.length ?? 0) > 0
  );
}
