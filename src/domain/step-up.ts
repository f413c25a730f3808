/**
 * Passkey step-up (issue 22, DESIGN invariant 9): which requests need it and what a passkey
 * signs. Pure: no I/O.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Amount } from './amount.js';
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
 * The full hash a passkey commits to. Today the SHA-256 of the sealed call's canonical JSON;
 * DESIGN "States, ids and hashes" names `approvalHash` (kind, wallet, asset, ordered sealHashes),
 * which replaces this one function when approvals own executions.
 */
export const approvalHashOf = (frozen: Pick<SealedRequest, 'call'>): string =>
  bytesToHex(sha256(utf8ToBytes(canonicalJson(frozen.call))));

export const STEP_UP_DOMAIN = 'rampart-stepup-v1';

export interface ChallengeInputs {
  approvalId: string;
  approvalHash: string;
  approverId: string;
  /** Random, base64url, stored with the token. */
  nonce: string;
}

/**
 * SHA-256("rampart-stepup-v1" ‖ approval id ‖ approval hash ‖ approver id ‖ nonce), each part
 * ended by a NUL byte so no two different inputs concatenate alike (issue 22 "What must hold").
 */
export function stepUpChallenge(c: ChallengeInputs): Uint8Array {
  const parts = [STEP_UP_DOMAIN, c.approvalId, c.approvalHash, c.approverId, c.nonce];
  return sha256(utf8ToBytes(parts.map((p) => `${p}\0`).join('')));
}

/** What an approver's vote keeps so anyone can re-verify it later (`rampart verify`). */
export interface PasskeyProof {
  credentialId: string;
  /** base64url, as the browser returned them. */
  authenticatorData: string;
  clientDataJSON: string;
  signature: string;
  userHandle?: string;
  counter: number;
  challenge: ChallengeInputs;
}
