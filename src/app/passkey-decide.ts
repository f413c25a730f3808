/**
 * Deciding about a passkey with a passkey: a new
 * passkey counts only once ANOTHER approver approves it on the step-up page with their own usable
 * passkey; a passkey is removed only with an assertion by another usable passkey of the same
 * person (or the CLI). A Slack click alone gets a link, never a change.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { noSelfApproval } from '../domain/rules/index.js';
import type { ChallengeV2 } from '../domain/step-up.js';
import type { StoredPasskey } from '../store/passkeys.js';
import type { TokenData } from '../store/step-up-tokens.js';
import { authorise } from './decide.js';
import { redrawPasskeyCard } from './passkey-card.js';
import { assertionOptions, verifyAssertion } from './step-up-assert.js';
import { recordAttempt, relyingParty, STEP_UP_TOKEN_MS, type StepUpDeps } from './step-up-deps.js';

export type PasskeyPurpose = 'enrol-approve' | 'remove';

/** What the assertion commits to: this exact passkey of this owner (its key and when it was made). */
export const passkeyHash = (p: Pick<StoredPasskey, 'user' | 'id' | 'publicKey' | 'createdAt'>): string =>
  createHash('sha256')
    .update([p.user, p.id, p.publicKey, String(p.createdAt)].join('\0'))
    .digest('hex');

const usableNow = (now: number) => (p: StoredPasskey) => p.status === 'active' && p.usableFrom <= now;

export type PasskeyOffer =
  | { kind: 'link'; url: string }
  | { kind: 'self' }
  | { kind: 'not-approver' }
  /** Gone, already active (approval), or unknown. */
  | { kind: 'late' }
  | { kind: 'no-passkey'; waiting: boolean }
  /** Removal: no other usable passkey of the same person; only the CLI can remove it. */
  | { kind: 'no-other' };

async function link(deps: StepUpDeps, purpose: PasskeyPurpose, user: string, p: StoredPasskey): Promise<PasskeyOffer> {
  const now = deps.now();
  const token = await deps.stepUpTokens.issue(
    {
      purpose,
      user,
      subject: `${p.user}/${p.id}`,
      subjectHash: passkeyHash(p),
      nonce: randomBytes(32).toString('base64url'),
      expiresAt: now + STEP_UP_TOKEN_MS,
    },
    now,
  );
  return { kind: 'link', url: `${relyingParty(deps.config).base}/step-up#${token}` };
}

/** "Approve passkey" on the card: a link for `approver`, never an activation. */
export async function offerPasskeyApproval(
  deps: StepUpDeps,
  approver: string,
  owner: string,
  id: string,
): Promise<PasskeyOffer> {
  // Four eyes on a passkey too: its owner never approves it.
  if (!noSelfApproval({ user: approver }, owner).ok) return { kind: 'self' };
  if (await authorise(deps, approver)) return { kind: 'not-approver' };
  const p = await deps.passkeys.get(owner, id);
  if (p?.status !== 'pending') return { kind: 'late' };
  const usable = await deps.passkeys.usable(approver, deps.now());
  if (usable.length === 0) return { kind: 'no-passkey', waiting: (await deps.passkeys.list(approver)).length > 0 };
  return link(deps, 'enrol-approve', approver, p);
}

/** "Remove" from /passkey: a link that removes `id` once another passkey of `owner` signs. */
export async function offerPasskeyRemoval(deps: StepUpDeps, owner: string, id: string): Promise<PasskeyOffer> {
  const p = await deps.passkeys.get(owner, id);
  if (!p) return { kind: 'late' };
  const others = (await deps.passkeys.list(owner)).filter((o) => o.id !== id && usableNow(deps.now())(o));
  if (others.length === 0) return { kind: 'no-other' };
  return link(deps, 'remove', owner, p);
}

export interface PasskeyBound {
  data: TokenData & { purpose: PasskeyPurpose };
  passkey: StoredPasskey;
  inputs: ChallengeV2;
  allowed: (p: StoredPasskey) => boolean;
}

/** Checks a counted token still fits the passkey exactly as it was. */
export async function bindPasskey(
  deps: StepUpDeps,
  data: TokenData & { purpose: PasskeyPurpose },
): Promise<PasskeyBound | { kind: 'invalid' }> {
  // Slack user ids and base64url credential ids hold no '/'.
  const slash = data.subject.indexOf('/');
  const owner = data.subject.slice(0, slash);
  const p = slash > 0 ? await deps.passkeys.get(owner, data.subject.slice(slash + 1)) : undefined;
  const approving = data.purpose === 'enrol-approve';
  const fine =
    p !== undefined &&
    passkeyHash(p) === data.subjectHash &&
    (approving
      ? p.status === 'pending' && noSelfApproval({ user: data.user }, owner).ok && !(await authorise(deps, data.user))
      : data.user === owner);
  if (!fine || !p) {
    recordAttempt(deps, { purpose: data.purpose, outcome: 'changed', user: data.user });
    return { kind: 'invalid' };
  }
  const now = deps.now();
  const allowed = (o: StoredPasskey) => usableNow(now)(o) && (approving || o.id !== p.id);
  const inputs: ChallengeV2 = {
    purpose: data.purpose,
    subject: data.subject,
    hash: data.subjectHash,
    approverId: data.user,
    nonce: data.nonce,
  };
  return { data, passkey: p, inputs, allowed };
}

export type PasskeyBegun =
  | { kind: 'invalid' }
  | { kind: 'no-passkey' }
  | {
      kind: 'ready';
      purpose: PasskeyPurpose;
      passkey: StoredPasskey;
      user: string;
      options: PublicKeyCredentialRequestOptionsJSON;
    };

export async function beginPasskeyDecision(deps: StepUpDeps, bound: PasskeyBound): Promise<PasskeyBegun> {
  const mine = (await deps.passkeys.list(bound.data.user)).filter(bound.allowed);
  if (mine.length === 0) {
    recordAttempt(deps, { purpose: bound.data.purpose, outcome: 'no-passkey', user: bound.data.user });
    return { kind: 'no-passkey' };
  }
  const options = await assertionOptions(deps, bound.inputs, mine);
  return { kind: 'ready', purpose: bound.data.purpose, passkey: bound.passkey, user: bound.data.user, options };
}

export type PasskeyDecided =
  | { kind: 'invalid' }
  | { kind: 'failed' }
  | { kind: 'activated'; passkey: StoredPasskey; usableFrom: number }
  | { kind: 'removed'; passkey: StoredPasskey }
  /** Someone else decided first (approved or removed meanwhile). */
  | { kind: 'late' };

export async function finishPasskeyDecision(
  deps: StepUpDeps,
  token: string,
  bound: PasskeyBound,
  body: unknown,
): Promise<PasskeyDecided> {
  const { data, passkey } = bound;
  const a = await verifyAssertion(deps, token, data.user, bound.inputs, body, bound.allowed);
  if (a.kind !== 'ok') {
    recordAttempt(deps, { purpose: data.purpose, outcome: a.kind === 'invalid' ? 'gone' : a.why, user: data.user });
    return a.kind === 'invalid' ? { kind: 'invalid' } : { kind: 'failed' };
  }
  if (data.purpose === 'remove') {
    const removed = await deps.passkeys.revoke(passkey.user, passkey.id);
    recordAttempt(deps, { purpose: 'remove', outcome: removed ? 'ok' : 'late', user: data.user });
    if (!removed) return { kind: 'late' };
    await Promise.all([
      deps.notices?.removed(passkey.user, [passkey], passkey.user),
      redrawPasskeyCard(deps, passkey, { kind: 'removed', by: passkey.user }),
    ]);
    return { kind: 'removed', passkey };
  }
  const usableFrom = deps.now() + deps.config.stepUp.cooldownMs;
  const activated = await deps.passkeys.activate(passkey.user, passkey.id, data.user, usableFrom);
  recordAttempt(deps, { purpose: 'enrol-approve', outcome: activated ? 'ok' : 'late', user: data.user });
  if (!activated) return { kind: 'late' };
  const now = { ...passkey, status: 'active' as const, approvedBy: data.user, usableFrom };
  await Promise.all([
    deps.notices?.added(now),
    redrawPasskeyCard(deps, passkey, { kind: 'approved', by: data.user, usableFrom }),
  ]);
  return { kind: 'activated', passkey: now, usableFrom };
}
