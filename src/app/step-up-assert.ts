/**
 * One passkey assertion over a challenge, shared by every page flow that needs one: a
 * payment's vote, a batch's Resume, another approver's approval of a new passkey, the removal of
 * a passkey by another of the same person. Verified with @simplewebauthn/server (origin and RP ID
 * from the configuration, user verification required), then the token is used and the signature
 * counter moved in one script: only then does the caller act.
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { type ChallengeV2, challengeBytes, type PasskeyProof, proofOf } from '../domain/step-up.js';
import type { StoredPasskey } from '../store/passkeys.js';
import { relyingParty, type StepUpDeps } from './step-up-deps.js';
import { webauthn } from './webauthn.js';

/** What the browser posts back; parsed here, verified by the library. */
export const assertionSchema = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: z.string().min(1).max(4096),
    authenticatorData: z.string().min(1).max(4096),
    signature: z.string().min(1).max(4096),
    userHandle: z.string().max(1024).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** Options for the browser: only `allowed` passkeys, user verification required. */
export async function assertionOptions(
  deps: Pick<StepUpDeps, 'config'>,
  inputs: ChallengeV2,
  allowed: readonly StoredPasskey[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: relyingParty(deps.config).rpId,
    challenge: new Uint8Array(challengeBytes(inputs)),
    allowCredentials: allowed.map((p) => ({
      id: p.id,
      ...(p.transports ? { transports: p.transports as never } : {}),
    })),
    userVerification: 'required',
    timeout: 120_000,
  });
}

export type Asserted =
  | { kind: 'ok'; proof: PasskeyProof }
  /** why: unknown-passkey, not-usable, failed, counter, no-passkey (revoked meanwhile). */
  | { kind: 'failed'; why: string }
  /** The token was used meanwhile. */
  | { kind: 'invalid' };

/**
 * Verifies `body` as `user`'s assertion over `inputs` with one of the passkeys `allowed` accepts,
 * then uses `token` with the new counter. A failure records nothing.
 */
export async function verifyAssertion(
  deps: Pick<StepUpDeps, 'config' | 'passkeys' | 'stepUpTokens' | 'log'>,
  token: string,
  user: string,
  inputs: ChallengeV2,
  body: unknown,
  allowed: (p: StoredPasskey) => boolean,
): Promise<Asserted> {
  const parsed = assertionSchema.safeParse(body);
  const passkey = parsed.success ? await deps.passkeys.get(user, parsed.data.id) : undefined;
  if (!parsed.success || !passkey || !allowed(passkey))
    return { kind: 'failed', why: passkey ? 'not-usable' : 'unknown-passkey' };
  const response = parsed.data as AuthenticationResponseJSON;
  const rp = relyingParty(deps.config);
  const { verifyAuthenticationResponse } = await webauthn();
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: Buffer.from(challengeBytes(inputs)).toString('base64url'),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter },
      requireUserVerification: true,
    });
    if (!v.verified || !v.authenticationInfo.userVerified) throw new Error('not verified');
    newCounter = v.authenticationInfo.newCounter;
  } catch (err) {
    deps.log.info({ err, purpose: inputs.purpose, subject: inputs.subject }, 'passkey assertion refused');
    return { kind: 'failed', why: 'failed' };
  }
  const used = await deps.stepUpTokens.consume(token, deps.passkeys.countersKey(user), passkey.id, newCounter);
  if (used === 'gone') return { kind: 'invalid' };
  if (used !== 'ok') return { kind: 'failed', why: used };
  return {
    kind: 'ok',
    proof: proofOf(
      {
        credentialId: passkey.id,
        authenticatorData: response.response.authenticatorData,
        clientDataJSON: response.response.clientDataJSON,
        signature: response.response.signature,
        ...(response.response.userHandle ? { userHandle: response.response.userHandle } : {}),
        counter: newCounter,
      },
      inputs,
    ),
  };
}
