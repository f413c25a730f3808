/**
 * The passkey side of confirming an unknown outcome as not paid: the page accepts a
 * `confirm-not-paid` link only while its execution's outcome is `unknown`; the passkey signs a v2
 * challenge over that purpose, the execution id and the approvalHash whose first 10 characters
 * its card shows. The confirmation itself (who may confirm, the proposal, the move to failed) is
 * the not-paid use case's, reached through the `confirmNotPaid` port with the verified proof.
 */
import type { ChallengeV2, PasskeyProof } from '../domain/step-up.js';
import type { TokenData } from '../store/step-up-tokens.js';
import { checkProof, type ProofCheck, type ProofDeps } from './passkey-proof.js';
import type { StepUpDeps } from './step-up-deps.js';
import { stepUpHash, subjectInState } from './step-up-subject.js';

/** What the page hands the confirmation once the confirmer's passkey verified. */
export interface NotPaidConfirmation {
  executionId: string;
  user: string;
  /** The proposal the confirmer saw, as the link carried it. */
  proposal?: string;
  /** A v2 proof: purpose confirm-not-paid, subject the execution id, hash its approval's approvalHash. */
  proof: PasskeyProof;
}

/** The confirmation's answer: `text` is shown on the page as it is (one sentence). */
export interface ConfirmedNotPaid {
  ok: boolean;
  /** For the attempt log and metric: confirmed, self, proposer, late… */
  kind: string;
  text: string;
}

/** The not-paid use case, wired by the composition root; absent: the page records nothing. */
export type ConfirmNotPaid = (c: NotPaidConfirmation) => Promise<ConfirmedNotPaid>;

/**
 * The full hash a confirmation of `executionId` commits to while its outcome is unknown: its
 * approval's approvalHash (the card shows its first 10 characters). undefined: not unknown, or
 * a call changed since it was sealed.
 */
export async function notPaidHash(deps: Pick<StepUpDeps, 'store'>, executionId: string): Promise<string | undefined> {
  const found = await subjectInState(deps.store, 'confirm-not-paid', executionId);
  return found ? stepUpHash(deps.store, found.record) : undefined;
}

/**
 * Does `proof` verify as `user`'s passkey confirming `executionId` not paid over `subjectHash`?
 * For the confirmation to check a proof it was handed, or kept (its signature only; the page
 * used the link and moved the signature counter when the assertion was made).
 */
export async function verifyNotPaidProof(
  deps: ProofDeps,
  c: { user: string; executionId: string; subjectHash: string; proof: PasskeyProof },
): Promise<ProofCheck> {
  if (c.proof.challengeVersion !== 2 || c.proof.challenge.purpose !== 'confirm-not-paid')
    return { ok: false, why: 'mismatch' };
  const expected: ChallengeV2 = {
    purpose: 'confirm-not-paid',
    subject: c.executionId,
    hash: c.subjectHash,
    approverId: c.user,
    nonce: c.proof.challenge.nonce,
  };
  return checkProof(deps, c.user, expected, c.proof);
}

/** After the page verified the passkey: hands the confirmation over. */
export async function confirmWithProof(
  deps: StepUpDeps,
  data: TokenData,
  proof: PasskeyProof,
): Promise<ConfirmedNotPaid> {
  if (!deps.confirmNotPaid)
    return {
      ok: false,
      kind: 'unavailable',
      text: 'Rampart cannot record a not-paid confirmation here; nothing was recorded.',
    };
  return deps.confirmNotPaid({
    executionId: data.subject,
    user: data.user,
    ...(data.proposal === undefined ? {} : { proposal: data.proposal }),
    proof,
  });
}
