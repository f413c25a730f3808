/**
 * A money-moving (or destination-adding) request and its state machine (DESIGN "Request
 * states"). Pure: no I/O. The store applies these transitions atomically in Redis.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Amount } from './amount.js';
import type { ApprovalShape, ApprovalState, ExecutionCounts, ExecutionState, ViewState } from './approval.js';
import type { AssetId } from './assets.js';
import type { BatchFacts } from './batch-approval.js';
import { canonicalJson } from './canonical-json.js';
import type { Destination, HolderSource } from './destination.js';
import type { FailureFacts } from './failure.js';
import type { NotPaidProposal } from './not-paid.js';
import type { RepeatHit } from './repeats.js';
import type { SealedSchedule } from './schedule.js';
import type { PasskeyProof } from './step-up.js';

/**
 * A record's `state` is the view of its approval and executions, derived by one function
 * (domain/approval.ts viewState); moves happen only at the approval and execution levels.
 */
export const FINAL_STATES: ReadonlySet<ViewState> = new Set([
  'succeeded',
  'failed',
  'unknown',
  'denied',
  'cancelled',
  'expired',
]);
export const isFinal = (s: ViewState): boolean => FINAL_STATES.has(s);

/** A beneficiary that already exists at the service, as the requester states it. */
export interface StatedBeneficiary {
  beneficiary_id: string;
  identity_id: string;
  label: string;
  bank_name: string;
  /** The account's last four digits: Rampart never holds a full account number for these. */
  account_last4: string;
}

/**
 * Exactly the body the service will receive (spec 4.2, 4.4, 4.3) — or, for
 * `register-beneficiary`, what Rampart's registry records on approval: the service has no way
 * to read a beneficiary back (spec 2.0.0, no GET /beneficiary), so nothing is sent to it.
 */
export type ServiceCall =
  | { kind: 'transfer'; body: { wallet_id: string; amount: number; receiver: string; asset: AssetId } }
  | { kind: 'offramp'; body: { wallet_id: string; amount: number; beneficiary_id: string; asset: AssetId } }
  | { kind: 'beneficiary'; body: { currency: string; identity_id: string; details: Record<string, unknown> } }
  | { kind: 'register-beneficiary'; body: { beneficiaries: StatedBeneficiary[] } }
  /** Address-book entries to add (domain/address-book.ts): recorded on approval, nothing is sent. */
  | { kind: 'address-book'; body: { entries: AddressBookEntryCall[] } };

/** What a card says about the entry it pays. */
export interface BookEntryFacts {
  id: string;
  name: string;
  addedBy: string;
  approvedBy: string;
  approvedAt: number;
  usableAt: number;
  /** A new beneficiary (an offramp's), cooling off as an entry does; else an address-book entry. */
  beneficiary?: boolean;
}

/** One entry as an addition seals it; `wallets` is '*' or wallet ids. */
export interface AddressBookEntryCall {
  name: string;
  chain: string;
  address: string;
  wallets: '*' | string[];
}

export type RequestKind = ServiceCall['kind'];

/** What the card shows beside the call; fixed at posting time like the call itself. */
export interface RequestDisplay {
  walletAlias?: string;
  walletAddress?: string;
  /** The exact amount, "250.00"; an "entire balance" request shows the amount it was sealed at. */
  amountText?: string;
  /**
   * The requester asked for the entire available balance; the call carries the exact
   * amount available at submission (never -1), and the card says so.
   */
  entireBalance?: boolean;
  assetCode?: string;
  chain?: string;
  availableBefore?: string;
  availableAfter?: string;
  /** Never paid by Rampart before: a transfer's receiver, or an offramp's beneficiary. */
  newReceiver?: boolean;
  /** The receiver is this configured wallet's own address (alias). */
  ownWallet?: string;
  /** NGN per unit of the asset at submission (onramp rate), for an indicative naira figure. */
  indicativeRate?: number;
  /** When the holder name was checked by the bank lookup (registry entry's creation). */
  holderCheckedAt?: number;
  beneficiaryLabel?: string;
  holderName?: string;
  /** Who vouches for holderName: the service's lookup, or only the requester. */
  holderSource?: HolderSource;
  /** Cross-border beneficiary: country, bank codes, account masked in the middle. */
  destination?: Destination;
  identityLabel?: string;
  /** Beneficiary requests: what the registry keeps once it is created (no full numbers). */
  bankName?: string;
  accountMasked?: string;
  /** register-beneficiary: what GET /identity said about each identity when it was submitted. */
  identitiesChecked?: Array<{ id: string; bvnLast4: string; active: boolean }>;
  /** register-beneficiary from `rampart beneficiaries import`: the file's name. */
  importFile?: string;
  /** Offramp to a beneficiary registered as existing: its details are as stated by this person. */
  beneficiaryStatedBy?: string;
  beneficiaryBank?: string;
  /** A batch's card facts (domain/batch-approval.ts); absent for a single request. */
  batch?: BatchFacts;
  /** The address-book entry this transfer pays, as it stood at submission (domain/address-book.ts). */
  bookEntry?: BookEntryFacts;
  /** The receiver looks like a known destination without being it (address poisoning). */
  lookalike?: { of: string; ofAddress: string };
  /** An address-book addition: its entries (row = position, from 1) that look like a known destination. */
  entryLookalikes?: { row: number; address: string; of: string; ofAddress: string }[];
  /** DESTINATIONS=warn and the receiver is not in the address book: a new destination. */
  outsideBook?: boolean;
  /** Earlier payments this transfer or offramp repeats, unknown first (at submission). */
  repeats?: RepeatHit[];
  /** What screening checked at submission (domain/rules/screening.ts screeningLines). */
  screening?: string[];
}

/**
 * A request as sealed at submission: what runs is exactly this (DESIGN invariant 2). "Seal" is
 * this immutability; "freeze" is only the kill switch (`/freeze`, FreezeState). The
 * record property is `sealed`; the Redis hash field keeps its stored name, mapped in one place
 * (store/sealed-field.ts), so old records need no migration.
 */
export interface SealedRequest {
  id: string;
  call: ServiceCall;
  display: RequestDisplay;
  requester: string;
  reason: string;
  /** Channel the request was made from; the requester's confirmation goes there. */
  origin?: string | undefined;
  createdAt: number;
  expiresAt: number;
  requiredApprovals: number;
  rule: string;
  /** Short hash of the sealed call, shown on the card. */
  hash: string;
  /**
   * The available balance (minor units) the request was submitted against; an
   * "entire available balance" request counts for this much against velocity limits.
   */
  availableUnits?: string;
  /** Velocity headroom at submission, as shown on the card. */
  velocityNote?: string;
  /**
   * Set once the request is final and its personal data was masked; the full
   * SHA-256 of the original call still lets anyone holding the original check it.
   */
  redacted?: { at: number; callSha256: string };
  /** Every vote that counts needs the approver's passkey (decided at submission). */
  stepUp?: boolean;
  /** When it may run, decided at submission (domain/timing.ts); the quorum turns it into `runAt`. */
  timing?: Timing;
  /** A series' schedule with its run dates, sealed at submission (domain/schedule.ts). */
  schedule?: SealedSchedule;
}

/**
 * A cancel window after the quorum (`delayMs`, DELAY) and a set time (`notBefore`, ms; `zone` is how
 * the requester wrote it). runAt = the later of notBefore and the quorum plus delayMs.
 */
export interface Timing {
  delayMs?: number;
  notBefore?: number;
  zone?: string;
}

export interface Vote {
  user: string;
  at: number;
  /** The verified assertion that made this vote count. */
  passkey?: PasskeyProof;
}

export interface HistoryEntry {
  at: number;
  event: string;
  by?: string;
  detail?: string;
  /** The execution an entry is about, when the approval has more than one. */
  execution?: string;
  /**
   * On a cancel the start script made, what refused it (a ScreeningCode or an address-book code,
   * store/lua/includes/start-cancel.lua); absent on entries written before it was stored.
   */
  code?: string;
  /** On a passkey approval, the assertion and its challenge inputs. */
  passkey?: PasskeyProof;
  /** On an approval, the approver confirmed the card's warnings (a lookalike must be). */
  warningsChecked?: true;
}

/** One sealed service call of an approval, with its own compare-and-set, token and outcome. */
export interface ExecutionRecord {
  id: string;
  approvalId: string;
  state: ExecutionState;
  /** Full SHA-256 of the sealed call (10 characters for records sealed before format 2). */
  sealHash: string;
  /**
   * Where it pays (domain/destination-key.ts), written with the sealed call at creation and kept
   * beside it, outside what sealHash covers; absent for records created before keys, and for calls
   * that pay no one.
   */
  destinationKey?: string;
  /** The address-book entry it was sealed with (store/lua.ts CREATE); START checks it is still there. */
  entryId?: string;
  /** How many times it has started (each try has its own job id, domain/approval.ts tryJobId). */
  tries: number;
  /** The job that started its current or last try. */
  job?: string;
  outcome?: RequestOutcome;
  /** A not-paid proposal on an outcome-unknown execution, waiting for a second approver (kept after). */
  proposal?: NotPaidProposal;
}

export interface RequestOutcome {
  hash?: string;
  link?: string;
  reference?: string;
  id?: string;
  /** Rampart's own words (a crash, an integrity check); a failed call carries `failure` instead. */
  message?: string;
  /**
   * Beside `message` on an execution its start cancelled: what refused it (a ScreeningCode or an
   * address-book code, store/lua/includes/start-cancel.lua); absent on outcomes stored before it was.
   */
  code?: string;
  failure?: FailureFacts;
  /** An unknown outcome a person resolved (/resolve): who, when, and what they found. */
  resolution?: {
    by: string;
    at: number;
    paid: boolean;
    /** Not paid: the proposal a second approver confirmed (`by` is the confirmer). */
    proposal?: NotPaidProposal;
    /** Recorded with `rampart resolve`. */
    via?: 'cli';
    /** Not paid on a passkey approval: the confirmer's assertion (a v2 challenge, purpose confirm-not-paid). */
    passkey?: PasskeyProof;
  };
}

export interface RequestRecord {
  sealed: SealedRequest;
  state: ViewState;
  votes: Vote[];
  decidedBy?: string;
  decidedAt?: number;
  /**
   * Set at quorum when the sealed timing asks for it (Redis ms): the start script refuses
   * every try before it ('not-yet'). Between the quorum and this time the request is waiting.
   */
  runAt?: number;
  denyReason?: string;
  outcome?: RequestOutcome;
  card?: { channel: string; ts: string };
  /** Why the last quorum-making approval was held (velocity limit), until decided. */
  held?: string;
  /** Why a batch was paused other than by an unknown row (failures, funding, Redis). */
  pauseReason?: string;
  /** When the request was escalated to ESCALATE_TO. */
  escalatedAt?: number;
  /** One payment or a batch of rows: the approval's stored `shape` (domain/approval.ts). */
  shape: ApprovalShape;
  /** A series' run: run `k` of series `series` (store/lua/series-run.lua writes both). */
  run?: { series: string; k: number };
  /** The approval's own state; `state` above is its view (domain/approval.ts viewState). */
  approvalState: ApprovalState;
  /** How many executions it owns, and how many are in each state. */
  executionCount: number;
  counts: ExecutionCounts;
  /** The first page of its executions (all of them for a single request); page with the store. */
  executions: ExecutionRecord[];
  /**
   * A finished batch: the sum of its succeeded rows' sealed amounts, read from the rows when the
   * batch is drawn (app/batch-moved.ts), so a row's finish writes nothing more.
   */
  moved?: Amount;
}

// The same SHA-256 as node:crypto's, from the pure library domain/ already uses: no node:* here.
export { canonicalJson };

/** The first 10 characters of the call's SHA-256 (cards before format 2; tests and old records). */
export const callHash = (call: ServiceCall): string =>
  bytesToHex(sha256(utf8ToBytes(canonicalJson(call)))).slice(0, 10);

export const formatRequestId = (n: number): string => `R-${n}`;
export const REQUEST_ID = /^R-\d+$/;

/** A batch (many rows under one approval), by the approval's stored shape — never by its id or its call. */
export const isBatchRecord = (record: Pick<RequestRecord, 'shape'>): boolean => record.shape === 'batch';
