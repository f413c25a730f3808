/**
 * Re-verifies a kept passkey assertion: the signature over the challenge recomputed
 * from what it must commit to, with the registered public key. Shared by `rampart verify` and by
 * whoever must check a proof it was handed (a not-paid confirmation). It checks the signature
 * only: the one-time token and the signature counter were checked when the assertion was made.
 */
import { type Challenge, challengeBytes, type PasskeyProof } from '../domain/step-up.js';
import type { PasskeyStore } from '../store/passkeys.js';
import { relyingParty, type StepUpDeps } from './step-up-deps.js';
import { webauthn } from './webauthn.js';

export type ProofDeps = { passkeys: Pick<PasskeyStore, 'get'>; config: StepUpDeps['config'] };

export type ProofCheck = { ok: true } | { ok: false; why: 'unregistered' | 'mismatch' };

/** Does `proof` verify as `user`'s assertion over `expected`? */
export async function checkProof(
  deps: ProofDeps,
  user: string,
  expected: Challenge,
  proof: PasskeyProof,
): Promise<ProofCheck> {
  const passkey = await deps.passkeys.get(user, proof.credentialId);
  if (!passkey) return { ok: false, why: 'unregistered' };
  const rp = relyingParty(deps.config);
  const { verifyAuthenticationResponse } = await webauthn();
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
      expectedChallenge: Buffer.from(challengeBytes(expected)).toString('base64url'),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      // The stored counter has moved on since; the signature, not the counter, is re-checked.
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0 },
      requireUserVerification: true,
    });
    return v.verified ? { ok: true } : { ok: false, why: 'mismatch' };
  } catch {
    return { ok: false, why: 'mismatch' };
  }
}
