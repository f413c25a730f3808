/**
 * Enrolling a passkey: a one-time link (10 min) bound to one approver;
 * the page registers a passkey with user verification required. From the CLI while nobody has a
 * passkey yet (or APPROVERS names one person) it is active at once; otherwise it waits, pending,
 * for another approver's passkey approval and then its cool-down.
 */
import { randomBytes } from 'node:crypto';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { Passkey } from '../store/passkeys.js';
import { rememberPasskeyCard } from './passkey-card.js';
import { addressAllows, ENROL_TOKEN_MS, recordAttempt, relyingParty, type StepUpDeps } from './step-up-deps.js';
import { webauthn } from './webauthn.js';

export type EnrolLink = { kind: 'link'; url: string; expiresAt: number } | { kind: 'bootstrap-closed' };

/**
 * A link for `user`. `bootstrap` (the CLI, server access) skips approval and cool-down, and is
 * refused once any approver holds a passkey, unless APPROVERS names a single person.
 */
export async function enrolLink(
  deps: Pick<StepUpDeps, 'config' | 'passkeys' | 'stepUpTokens' | 'now'>,
  user: string,
  bootstrap: boolean,
): Promise<EnrolLink> {
  if (bootstrap && deps.config.approvers.length > 1 && (await deps.passkeys.users()).length > 0)
    return { kind: 'bootstrap-closed' };
  const now = deps.now();
  const expiresAt = now + ENROL_TOKEN_MS;
  const token = await deps.stepUpTokens.issue(
    {
      purpose: 'enrol',
      user,
      subject: user,
      subjectHash: '',
      nonce: randomBytes(32).toString('base64url'),
      expiresAt,
      ...(bootstrap ? { bootstrap: true } : {}),
    },
    now,
  );
  return { kind: 'link', url: `${relyingParty(deps.config).base}/passkey#${token}`, expiresAt };
}

export type EnrolBegun =
  | { kind: 'invalid' }
  | { kind: 'limited' }
  | { kind: 'ready'; user: string; options: PublicKeyCredentialCreationOptionsJSON };

async function bindEnrol(deps: StepUpDeps, token: string, from: string | undefined) {
  if (!(await addressAllows(deps, 'enrol', from))) return { kind: 'limited' as const };
  const a = await deps.stepUpTokens.attempt(token, deps.now());
  if (a.kind === 'invalid' || a.data.purpose !== 'enrol') {
    recordAttempt(deps, { purpose: 'enrol', outcome: 'invalid' });
    return { kind: 'invalid' as const };
  }
  if (a.kind !== 'ok') {
    recordAttempt(deps, { purpose: 'enrol', outcome: a.kind, user: a.data.user });
    return { kind: 'limited' as const };
  }
  return { kind: 'ok' as const, data: a.data };
}

/** `from`: the client address when TRUST_PROXY names the proxy; undefined: no per-address limit. */
export async function beginEnrol(deps: StepUpDeps, token: string, from?: string): Promise<EnrolBegun> {
  const bound = await bindEnrol(deps, token, from);
  if (bound.kind !== 'ok') return bound;
  const { user, nonce } = bound.data;
  const existing = await deps.passkeys.list(user);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: 'Rampart',
    rpID: relyingParty(deps.config).rpId,
    userName: user,
    userID: new TextEncoder().encode(user),
    challenge: Buffer.from(nonce, 'base64url'),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    timeout: 120_000,
  });
  return { kind: 'ready', user, options };
}

const registrationSchema = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: z.string().min(1).max(8192),
    attestationObject: z.string().min(1).max(16384),
    transports: z.array(z.string().max(32)).max(8).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

export type Enrolled =
  | { kind: 'invalid' }
  | { kind: 'limited' }
  | { kind: 'failed' }
  | { kind: 'enrolled'; passkey: Passkey };

export async function finishEnrol(
  deps: StepUpDeps,
  token: string,
  body: unknown,
  browser: string,
  from?: string,
): Promise<Enrolled> {
  const bound = await bindEnrol(deps, token, from);
  if (bound.kind !== 'ok') return bound;
  const { user, nonce, bootstrap } = bound.data;
  const parsed = registrationSchema.safeParse(body);
  const rp = relyingParty(deps.config);
  const webauthnServer = await webauthn();
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    if (!parsed.success) throw new Error('not a registration response');
    const v = await webauthnServer.verifyRegistrationResponse({
      response: parsed.data as RegistrationResponseJSON,
      expectedChallenge: nonce,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    if (!v.verified) throw new Error('not verified');
    info = v.registrationInfo;
  } catch (err) {
    deps.log.info({ err, user }, 'passkey registration refused');
    recordAttempt(deps, { purpose: 'enrol', outcome: 'failed', user });
    return { kind: 'failed' };
  }
  // Single use: the one caller that deletes the token stores the passkey.
  if (!info || !(await deps.stepUpTokens.take(token))) return { kind: 'invalid' };
  const passkey: Passkey = {
    id: info.credential.id,
    user,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    ...(info.credential.transports ? { transports: [...info.credential.transports] } : {}),
    aaguid: info.aaguid,
    browser: browser.slice(0, 200),
    createdAt: deps.now(),
    status: bootstrap ? 'active' : 'pending',
    usableFrom: bootstrap ? 0 : Number.MAX_SAFE_INTEGER,
    ...(bootstrap ? { approvedBy: 'cli' } : {}),
  };
  await deps.passkeys.add(passkey, info.credential.counter);
  recordAttempt(deps, { purpose: 'enrol', outcome: bootstrap ? 'ok:bootstrap' : 'ok:pending', user });
  // The owner hears of every passkey; a pending one gets its approval card.
  await (bootstrap ? deps.notices?.added(passkey) : rememberPasskeyCard(deps, passkey));
  return { kind: 'enrolled', passkey };
}
