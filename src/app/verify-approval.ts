/**
 * `rampart verify R-…`: recompute every passkey vote's challenge from the sealed call
 * as stored now and re-verify its stored assertion with the registered public key. A vote keeps
 * its challenge version: v1 (votes cast before v2; no version stored) committed to the approval
 * id and, for a single request, its call's SHA-256; v2 commits to the purpose (`approve`, or
 * `entry` for an address-book addition), the
 * approval id and the approvalHash whose first 10 characters the card shows. Any change to the
 * call, the ids or the assertion fails it; so does a step-up request approved without one.
 */
import { type ChallengeInputs, type ChallengeV2, type PasskeyProof, votePurpose } from '../domain/step-up.js';
import type { PasskeyStore } from '../store/passkeys.js';
import type { RequestStore } from '../store/requests.js';
import { checkProof } from './passkey-proof.js';
import type { StepUpDeps } from './step-up-deps.js';
import { stepUpHash, v1Hash } from './step-up-subject.js';

export interface VoteCheck {
  user: string;
  ok: boolean;
  /** One sentence: what was checked, or what failed. */
  detail: string;
  /** The challenge version of a passkey vote. */
  challengeVersion?: 1 | 2;
}

export type Verification =
  | { kind: 'missing' }
  | { kind: 'checked'; requestId: string; stepUp: boolean; ok: boolean; votes: VoteCheck[] };

type VerifyDeps = { store: RequestStore; passkeys: Pick<PasskeyStore, 'get'>; config: StepUpDeps['config'] };

/** What `proof` must have been made over, from the record as stored now. */
function expectedChallenge(
  proof: PasskeyProof,
  approval: { id: string; kind: string; shape: string },
  user: string,
  hash: string,
): ChallengeInputs | ChallengeV2 {
  const nonce = proof.challenge.nonce;
  const approvalId = approval.id;
  return proof.challengeVersion === 2
    ? { purpose: votePurpose(approval.kind, approval.shape), subject: approvalId, hash, approverId: user, nonce }
    : { approvalId, approvalHash: hash, approverId: user, nonce };
}

export async function verifyApproval(deps: VerifyDeps, requestId: string): Promise<Verification> {
  const record = await deps.store.get(requestId);
  if (!record) return { kind: 'missing' };
  const votes: VoteCheck[] = [];
  const hashes = { 1: await v1Hash(deps.store, record), 2: await stepUpHash(deps.store, record) };
  for (const vote of record.votes) {
    const proof = vote.passkey;
    if (!proof) {
      votes.push({
        user: vote.user,
        ok: !record.sealed.stepUp,
        detail: record.sealed.stepUp ? 'counted without a passkey on a step-up request' : 'no passkey (not required)',
      });
      continue;
    }
    const version = proof.challengeVersion ?? 1;
    const fail = (detail: string) => votes.push({ user: vote.user, ok: false, detail, challengeVersion: version });
    const hash = hashes[version];
    if (hash === undefined) {
      fail('the stored call no longer matches the hash it was sealed with');
      continue;
    }
    const checked = await checkProof(
      deps,
      vote.user,
      expectedChallenge(
        proof,
        { id: record.sealed.id, kind: record.sealed.call.kind, shape: record.shape },
        vote.user,
        hash,
      ),
      proof,
    );
    if (checked.ok)
      votes.push({
        user: vote.user,
        ok: true,
        detail: `passkey signature (challenge v${version}) matches the sealed call`,
        challengeVersion: version,
      });
    else if (checked.why === 'unregistered') fail('its passkey is no longer registered, so it cannot be checked');
    else fail(`passkey signature (challenge v${version}) does not match the sealed call`);
  }
  const stepUp = record.sealed.stepUp === true;
  return { kind: 'checked', requestId, stepUp, ok: votes.every((v) => v.ok), votes };
}
