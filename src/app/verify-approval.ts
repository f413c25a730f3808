/**
 * `rampart verify R-…` (issue 22): recompute every passkey vote's challenge from the sealed call
 * as stored now and re-verify its stored assertion with the registered public key. Any change to
 * the call, the ids or the assertion fails it; so does a step-up request approved without one.
 */
import type { RequestRecord } from '../domain/request.js';
import { approvalHashOf, stepUpChallenge } from '../domain/step-up.js';
import type { PasskeyStore } from '../store/passkeys.js';
import type { RequestStore } from '../store/requests.js';
import { relyingParty, type StepUpDeps } from './step-up-deps.js';
import { isBatchRecord, stepUpHash } from './step-up-subject.js';
import { webauthn } from './webauthn.js';

export interface VoteCheck {
  user: string;
  ok: boolean;
  /** One sentence: what was checked, or what failed. */
  detail: string;
}

export type Verification =
  | { kind: 'missing' }
  | { kind: 'checked'; requestId: string; stepUp: boolean; ok: boolean; votes: VoteCheck[] };

type VerifyDeps = { store: RequestStore; passkeys: PasskeyStore; config: StepUpDeps['config'] };

/**
 * The hash the challenge must commit to, from the call as stored. A final record's call may be
 * masked (issue 9 item 12) and keeps the original's hash; money calls hold nothing to mask, so
 * theirs must still hash to it, or the stored call was changed.
 */
function sealedHash(r: RequestRecord): string | undefined {
  const now = approvalHashOf(r.frozen);
  const kept = r.frozen.redacted?.callSha256;
  if (!kept) return now;
  const money = r.frozen.call.kind === 'transfer' || r.frozen.call.kind === 'offramp';
  return money && now !== kept ? undefined : kept;
}

export async function verifyApproval(deps: VerifyDeps, requestId: string): Promise<Verification> {
  const record = await deps.store.get(requestId);
  if (!record) return { kind: 'missing' };
  const rp = relyingParty(deps.config);
  const { verifyAuthenticationResponse } = await webauthn();
  const votes: VoteCheck[] = [];
  // Issue 20: a batch's passkeys commit to every row's sealHash.
  const approvalHash = isBatchRecord(record) ? await stepUpHash(deps.store, record) : sealedHash(record);
  for (const vote of record.votes) {
    const proof = vote.passkey;
    if (!proof) {
      votes.push({
        user: vote.user,
        ok: !record.frozen.stepUp,
        detail: record.frozen.stepUp ? 'counted without a passkey on a step-up request' : 'no passkey (not required)',
      });
      continue;
    }
    const inputs = {
      approvalId: record.frozen.id,
      approvalHash: approvalHash ?? '',
      approverId: vote.user,
      nonce: proof.challenge.nonce,
    };
    if (approvalHash === undefined) {
      votes.push({
        user: vote.user,
        ok: false,
        detail: 'the stored call no longer matches the hash it was sealed with',
      });
      continue;
    }
    const passkey = await deps.passkeys.get(vote.user, proof.credentialId);
    if (!passkey) {
      votes.push({
        user: vote.user,
        ok: false,
        detail: 'its passkey is no longer registered, so it cannot be checked',
      });
      continue;
    }
    try {
      const v = await verifyAuthenticationResponse({
        response: {
          id: proof.credentialId,
          rawId: proof.credentialId,
          type: 'public-key',
          response: {
            authenticatorData: proof.authenticatorData,
            clientDataJSON: proof.clientDataJSON,
            signature: proof.signature,
            ...(proof.userHandle ? { userHandle: proof.userHandle } : {}),
          },
          clientExtensionResults: {},
        },
        expectedChallenge: Buffer.from(stepUpChallenge(inputs)).toString('base64url'),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        // The stored counter has moved on since; the signature, not the counter, is re-checked.
        credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0 },
        requireUserVerification: true,
      });
      votes.push(
        v.verified
          ? { user: vote.user, ok: true, detail: 'passkey signature matches the sealed call' }
          : { user: vote.user, ok: false, detail: 'passkey signature does not verify' },
      );
    } catch {
      votes.push({ user: vote.user, ok: false, detail: 'passkey signature does not match the sealed call' });
    }
  }
  const stepUp = record.frozen.stepUp === true;
  return { kind: 'checked', requestId, stepUp, ok: votes.every((v) => v.ok), votes };
}
