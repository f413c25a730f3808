/**
 * Passkey step-up (DESIGN invariant 9): which requests need it and what a passkey
 * signs. Pure: no I/O.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Amount } from './amount.js';
import { approvalHash, sealHash } from './approval.js';
import { parseThreshold } from './policy.js';
import { canonicalJson, type SealedRequest } from './request.js';

export interface StepUpSettings {
  /** Asset code (upper case) → threshold; '*' applies to every code (as TWO_APPROVALS_ABOVE). */
  above: Record<string, string> | undefined;
  newDestination: boolean;
}

/**
 * What needsStepUp judges. A payment must say whether its destination is new, so no door that
 * creates one can leave the question out; a request that adds a destination (a new beneficiary,
 * a registration of existing ones) is a new destination by what it is.
 */
export type StepUpSubject =
  | { kind: 'beneficiary' }
  | { kind: 'register-beneficiary' }
  | { kind: 'address-book' }
  | {
      kind: 'transfer' | 'offramp';
      assetCode?: string;
      /** The sealed amount: an "entire balance" request carries the exact amount it was sealed at. */
      amount?: Amount;
      /**
       * Rampart never paid this destination: a transfer's receiver on its chain, or an offramp's
       * beneficiary with no offramp to it that succeeded (being registered is not being paid).
       */
      newDestination: boolean;
    };

/**
 * Whether every vote that counts toward this request needs the approver's passkey. An asset the
 * setting does not name (and no '*') needs it for every amount: the admin drew a line for money
 * and an unnamed asset must not slip under it (default-deny, as the policy). Every door that
 * creates a request asks this one function, through the use case it calls.
 */
export function needsStepUp(settings: StepUpSettings, subject: StepUpSubject): boolean {
  if (subject.kind === 'beneficiary' || subject.kind === 'register-beneficiary') return settings.newDestination;
  // An entry is every future payment's destination: a passkey whenever any step-up is on.
  if (subject.kind === 'address-book') return settings.newDestination || settings.above !== undefined;
  if (settings.newDestination && subject.newDestination) return true;
  const thresholds = settings.above;
  if (!thresholds) return false;
  if (!subject.amount || !subject.assetCode) return true;
  const text = thresholds[subject.assetCode.toUpperCase()] ?? thresholds['*'];
  if (text === undefined) return true;
  const threshold = parseThreshold(text, subject.amount.decimals);
  return typeof threshold === 'string' || subject.amount.units > threshold.units;
}

/**
 * The hash v1 challenges committed to for a single request: the SHA-256 of its sealed call's
 * canonical JSON. Kept only to re-verify votes cast with a v1 challenge; every new challenge
 * commits to the approvalHash (sealedApprovalHash) the card shows the first 10 characters of.
 */
export const v1ApprovalHash = (sealed: Pick<SealedRequest, 'call'>): string =>
  bytesToHex(sha256(utf8ToBytes(canonicalJson(sealed.call))));

const MONEY: ReadonlySet<string> = new Set(['transfer', 'offramp']);

/**
 * The full hash a single request's card shows the first 10 characters of, and a v2 challenge
 * commits to: DESIGN "States, ids and hashes" approvalHash over its one sealHash (N = 1). A
 * masked final record keeps its original call's SHA-256, which is that
 * sealHash; a money call holds nothing to mask, so its call must still hash to it. A record
 * sealed before the approvalHash was its card's hash showed the call's own SHA-256, which it
 * keeps. undefined: the stored call no longer matches what the card shows.
 */
export function sealedApprovalHash(
  sealed: Pick<SealedRequest, 'call' | 'hash' | 'redacted' | 'timing' | 'schedule'>,
): string | undefined {
  const now = sealHash(sealed.call);
  const kept = sealed.redacted?.callSha256;
  if (kept && MONEY.has(sealed.call.kind) && kept !== now) return undefined;
  const seal = kept ?? now;
  const body = sealed.call.body as { wallet_id?: string; asset?: string };
  const runs = sealed.schedule?.runs;
  const full = approvalHash(sealed.call.kind, body.wallet_id ?? '', body.asset ?? '', [seal], sealed.timing, runs);
  if (full.startsWith(sealed.hash)) return full;
  return seal.startsWith(sealed.hash) ? seal : undefined;
}

export const STEP_UP_DOMAIN = 'rampart-stepup-v1';
export const STEP_UP_DOMAIN_V2 = 'rampart-stepup-v2';

/**
 * What a v2 assertion is for: a payment's vote, a vote on address-book entries, a paused batch's
 * Resume, confirming an unknown outcome as not paid, or a decision about a passkey itself. Each is
 * accepted only in its own state.
 */
export const STEP_UP_PURPOSES = [
  'approve',
  'entry',
  'series',
  'resume',
  'confirm-not-paid',
  'enrol-approve',
  'remove',
] as const;
export type StepUpPurpose = (typeof STEP_UP_PURPOSES)[number];

/**
 * The purpose a vote's challenge commits to: `entry` for an address-book addition (its hash
 * covers every entry of the card, an import's too), `series` for recurring payouts (its hash
 * covers the template and every run date), `approve` for a payment. A signature made for one can
 * never count as another, even over the same approval id.
 */
export const votePurpose = (kind: string, shape?: string): 'approve' | 'entry' | 'series' =>
  kind === 'address-book' ? 'entry' : shape === 'series' ? 'series' : 'approve';

/** What a v1 challenge committed to (votes cast before v2; only re-verified now). */
export interface ChallengeInputs {
  approvalId: string;
  approvalHash: string;
  approverId: string;
  /** Random, base64url, stored with the token. */
  nonce: string;
}

/** What a v2 challenge commits to. */
export interface ChallengeV2 {
  purpose: StepUpPurpose;
  /** The approval id (approve, resume), execution id (confirm-not-paid) or `<owner>/<credential>`. */
  subject: string;
  /** The full hash the page shows (for payments, the approvalHash whose first 10 characters the card shows). */
  hash: string;
  approverId: string;
  nonce: string;
}

export type Challenge = ChallengeInputs | ChallengeV2;
export const isV2 = (c: Challenge): c is ChallengeV2 => 'purpose' in c;

/**
 * v1: SHA-256("rampart-stepup-v1" ‖ approval id ‖ approval hash ‖ approver id ‖ nonce), each part
 * ended by a NUL byte so no two different inputs concatenate alike.
 */
export function stepUpChallenge(c: ChallengeInputs): Uint8Array {
  const parts = [STEP_UP_DOMAIN, c.approvalId, c.approvalHash, c.approverId, c.nonce];
  return sha256(utf8ToBytes(parts.map((p) => `${p}\0`).join('')));
}

/** v2: SHA-256("rampart-stepup-v2" ‖ purpose ‖ subject ‖ hash ‖ approver id ‖ nonce), NUL-ended as v1. */
export function stepUpChallengeV2(c: ChallengeV2): Uint8Array {
  const parts = [STEP_UP_DOMAIN_V2, c.purpose, c.subject, c.hash, c.approverId, c.nonce];
  return sha256(utf8ToBytes(parts.map((p) => `${p}\0`).join('')));
}

export const challengeBytes = (c: Challenge): Uint8Array => (isV2(c) ? stepUpChallengeV2(c) : stepUpChallenge(c));

interface ProofBase {
  credentialId: string;
  /** base64url, as the browser returned them. */
  authenticatorData: string;
  clientDataJSON: string;
  signature: string;
  userHandle?: string;
  counter: number;
}

/**
 * What an approver's vote keeps so anyone can re-verify it later (`rampart verify`), with the
 * challenge version it was made with: absent on votes cast before v2, which are v1.
 */
export type PasskeyProof = ProofBase &
  ({ challengeVersion?: 1; challenge: ChallengeInputs } | { challengeVersion: 2; challenge: ChallengeV2 });

/** The proof of an assertion over `challenge`, with its version. */
export const proofOf = (base: ProofBase, challenge: Challenge): PasskeyProof =>
  isV2(challenge) ? { ...base, challengeVersion: 2, challenge } : { ...base, challengeVersion: 1, challenge };
