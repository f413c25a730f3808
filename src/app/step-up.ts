/**
 * Passkey step-up of a vote (issue 22, DESIGN invariant 9): Approve on a step-up request offers a
 * one-time link; the page asks for the passkey over a challenge bound to the sealed call, and
 * only a verified assertion, used once with its token, reaches the same approve use case.
 */
import { randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { RequestRecord } from '../domain/request.js';
import { approvalHashOf, type ChallengeInputs, type PasskeyProof, stepUpChallenge } from '../domain/step-up.js';
import type { TokenData } from '../store/step-up-tokens.js';
import { type ApproveOutcome, approve, authorise } from './decide.js';
import { recordAttempt, relyingParty, STEP_UP_TOKEN_MS, type StepUpDeps } from './step-up-deps.js';

export type Offer = { kind: 'link'; url: string } | { kind: 'no-passkey'; waiting: boolean } | { kind: 'late' };

/** After Approve was refused for want of a passkey: a link for this approver and this approval only. */
export async function offerStepUp(deps: StepUpDeps, requestId: string, user: string): Promise<Offer> {
  const now = deps.now();
  const usable = await deps.passkeys.usable(user, now);
  if (usable.length === 0) return { kind: 'no-passkey', waiting: (await deps.passkeys.list(user)).length > 0 };
  const record = await deps.store.get(requestId);
  if (record?.state !== 'pending') return { kind: 'late' };
  const token = await deps.stepUpTokens.issue(
    {
      purpose: 'approve',
      user,
      subject: requestId,
      subjectHash: approvalHashOf(record.frozen),
      nonce: randomBytes(32).toString('base64url'),
      expiresAt: now + STEP_UP_TOKEN_MS,
    },
    now,
  );
  // The token rides in the fragment: never in a request line, a log or a referrer.
  return { kind: 'link', url: `${relyingParty(deps.config).base}/step-up#${token}` };
}

export type StepUpRefusal = { kind: 'invalid' } | { kind: 'limited' } | { kind: 'no-passkey' };

interface Bound {
  data: TokenData;
  record: RequestRecord;
  inputs: ChallengeInputs;
}

/** Counts the attempt, then checks the token still fits its approval exactly as it was. */
async function bind(deps: StepUpDeps, token: string): Promise<Bound | StepUpRefusal> {
  const a = await deps.stepUpTokens.attempt(token, deps.now());
  if (a.kind === 'invalid' || a.data.purpose !== 'approve') {
    recordAttempt(deps, { purpose: 'approve', outcome: 'invalid' });
    return { kind: 'invalid' };
  }
  const { data } = a;
  const seen = { purpose: 'approve' as const, user: data.user, requestId: data.subject };
  if (a.kind !== 'ok') {
    await refused(deps, seen, a.kind);
    return { kind: 'limited' };
  }
  const record = await deps.store.get(data.subject);
  if (record?.state !== 'pending' || approvalHashOf(record.frozen) !== data.subjectHash) {
    await refused(deps, seen, 'changed');
    return { kind: 'invalid' };
  }
  if (await authorise(deps, data.user)) {
    await refused(deps, seen, 'not-approver');
    return { kind: 'invalid' };
  }
  const inputs = { approvalId: data.subject, approvalHash: data.subjectHash, approverId: data.user, nonce: data.nonce };
  return { data, record, inputs };
}

async function refused(deps: StepUpDeps, seen: { user: string; requestId: string }, outcome: string): Promise<void> {
  recordAttempt(deps, { purpose: 'approve', outcome, ...seen });
  await deps.store.appendHistory(seen.requestId, {
    at: deps.now(),
    event: 'step-up refused',
    by: seen.user,
    detail: outcome,
  });
}

export type Begun =
  | StepUpRefusal
  | { kind: 'ready'; record: RequestRecord; approver: string; options: PublicKeyCredentialRequestOptionsJSON };

/** The page opened: what the card shows, and the options the browser asks the passkey with. */
export async function beginStepUp(deps: StepUpDeps, token: string): Promise<Begun> {
  const bound = await bind(deps, token);
  if ('kind' in bound) return bound;
  const usable = await deps.passkeys.usable(bound.data.user, deps.now());
  if (usable.length === 0) {
    await refused(deps, { user: bound.data.user, requestId: bound.data.subject }, 'no-passkey');
    return { kind: 'no-passkey' };
  }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).rpId,
    challenge: new Uint8Array(stepUpChallenge(bound.inputs)),
    allowCredentials: usable.map((p) => ({ id: p.id, ...(p.transports ? { transports: p.transports as never } : {}) })),
    userVerification: 'required',
    timeout: 120_000,
  });
  return { kind: 'ready', record: bound.record, approver: bound.data.user, options };
}

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

export type Finished = StepUpRefusal | { kind: 'failed' } | { kind: 'decided'; outcome: ApproveOutcome };

/** The passkey answered: verify, use the token with the counter, then the approve use case. */
export async function finishStepUp(deps: StepUpDeps, token: string, body: unknown): Promise<Finished> {
  const bound = await bind(deps, token);
  if ('kind' in bound) return bound;
  const { data, inputs } = bound;
  const seen = { user: data.user, requestId: data.subject };
  const parsed = assertionSchema.safeParse(body);
  const passkey = parsed.success ? await deps.passkeys.get(data.user, parsed.data.id) : undefined;
  const now = deps.now();
  if (!parsed.success || !passkey || passkey.status !== 'active' || passkey.usableFrom > now) {
    await refused(deps, seen, passkey ? 'not-usable' : 'unknown-passkey');
    return { kind: 'failed' };
  }
  const response = parsed.data as AuthenticationResponseJSON;
  const rp = relyingParty(deps.config);
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: Buffer.from(stepUpChallenge(inputs)).toString('base64url'),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: {
        id: passkey.id,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
      },
      requireUserVerification: true,
    });
    if (!v.verified || !v.authenticationInfo.userVerified) throw new Error('not verified');
    newCounter = v.authenticationInfo.newCounter;
  } catch (err) {
    deps.log.info({ err, requestId: data.subject }, 'passkey assertion refused');
    await refused(deps, seen, 'failed');
    return { kind: 'failed' };
  }
  const used = await deps.stepUpTokens.consume(token, deps.passkeys.countersKey(data.user), passkey.id, newCounter);
  if (used !== 'ok') {
    await refused(deps, seen, used);
    return used === 'gone' ? { kind: 'invalid' } : { kind: 'failed' };
  }
  const proof: PasskeyProof = {
    credentialId: passkey.id,
    authenticatorData: response.response.authenticatorData,
    clientDataJSON: response.response.clientDataJSON,
    signature: response.response.signature,
    ...(response.response.userHandle ? { userHandle: response.response.userHandle } : {}),
    counter: newCounter,
    challenge: inputs,
  };
  const outcome = await approve(deps, data.subject, data.user, proof);
  recordAttempt(deps, { purpose: 'approve', outcome: `vote:${outcome.kind}`, ...seen });
  return { kind: 'decided', outcome };
}
