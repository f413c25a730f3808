/**
 * Passkey step-up of a vote (DESIGN invariant 9): Approve on a step-up request offers a
 * one-time link; the page asks for the passkey over a v2 challenge bound to the purpose, the
 * subject and the hash the card shows, and only a verified assertion, used once with its token,
 * reaches the same approve use case. A paused step-up batch is resumed the same way, and an
 * unknown outcome is confirmed as not paid the same way (app/step-up-confirm.ts).
 */
import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { type ChallengeV2, votePurpose } from '../domain/step-up.js';
import type { TokenData } from '../store/step-up-tokens.js';
import { type BatchControlOutcome, resumeBatch } from './batch-control.js';
import { type ApproveOutcome, approve, authorise } from './decide.js';
import { assertionOptions, verifyAssertion } from './step-up-assert.js';
import { type ConfirmedNotPaid, confirmWithProof } from './step-up-confirm.js';
import { recordAttempt, relyingParty, STEP_UP_TOKEN_MS, type StepUpDeps } from './step-up-deps.js';
import {
  approvalOfSubject,
  peopleOf,
  type RecordPurpose,
  type Subject,
  stepUpHash,
  subjectInState,
} from './step-up-subject.js';

export { assertionSchema } from './step-up-assert.js';

/** `expiresAt`: when the link stops working (ms since the epoch). */
export type Offer =
  | { kind: 'link'; url: string; expiresAt: number }
  | { kind: 'no-passkey'; waiting: boolean }
  | { kind: 'late' };

/**
 * After Approve (or Resume, or a not-paid confirmation) was refused for want of a passkey: a link
 * for this approver and this subject only. `subject`: the approval id, or for confirm-not-paid the
 * execution id.
 */
export async function offerStepUp(
  deps: StepUpDeps,
  subject: string,
  user: string,
  purpose: RecordPurpose = 'approve',
  /** The click confirmed the card's warnings; the vote the page records says so. */
  warningsChecked = false,
  /** confirm-not-paid: the proposal the confirmer saw. */
  proposal?: string,
): Promise<Offer> {
  const now = deps.now();
  const usable = await deps.passkeys.usable(user, now);
  if (usable.length === 0) return { kind: 'no-passkey', waiting: (await deps.passkeys.list(user)).length > 0 };
  const found = await subjectInState(deps.store, purpose, subject);
  const subjectHash = found ? await stepUpHash(deps.store, found.record) : undefined;
  if (subjectHash === undefined) return { kind: 'late' };
  const expiresAt = now + STEP_UP_TOKEN_MS;
  const token = await deps.stepUpTokens.issue(
    {
      purpose,
      user,
      subject,
      subjectHash,
      nonce: randomBytes(32).toString('base64url'),
      expiresAt,
      ...(warningsChecked ? { warningsChecked: true } : {}),
      ...(proposal === undefined ? {} : { proposal }),
    },
    now,
  );
  // The token rides in the fragment: never in a request line, a log or a referrer.
  return { kind: 'link', url: `${relyingParty(deps.config).base}/step-up#${token}`, expiresAt };
}

export type StepUpRefusal = { kind: 'invalid' } | { kind: 'limited' } | { kind: 'no-passkey' };

export interface Bound extends Subject {
  data: TokenData & { purpose: RecordPurpose };
  inputs: ChallengeV2;
}

/** The v2 challenge of a counted token: its purpose, subject and the hash the page shows. */
export const challengeOfToken = (
  data: TokenData & { purpose: RecordPurpose },
  kind: string,
  shape?: string,
): ChallengeV2 => ({
  // A vote's token says `approve`; what the passkey signs names what the vote is on.
  purpose: data.purpose === 'approve' ? votePurpose(kind, shape) : data.purpose,
  subject: data.subject,
  hash: data.subjectHash,
  approverId: data.user,
  nonce: data.nonce,
});

/** Checks a counted token's subject is still in its purpose's state, exactly as it was. */
export async function bindRecord(deps: StepUpDeps, data: Bound['data']): Promise<Bound | StepUpRefusal> {
  const seen = { purpose: data.purpose, user: data.user, subject: data.subject };
  const found = await subjectInState(deps.store, data.purpose, data.subject);
  if (!found || (await stepUpHash(deps.store, found.record)) !== data.subjectHash) {
    await refused(deps, seen, 'changed');
    return { kind: 'invalid' };
  }
  if (await authorise(deps, data.user)) {
    await refused(deps, seen, 'not-approver');
    return { kind: 'invalid' };
  }
  return { ...found, data, inputs: challengeOfToken(data, found.record.sealed.call.kind, found.record.shape) };
}

const REFUSED_EVENT: Record<RecordPurpose, string> = {
  approve: 'step-up refused',
  resume: 'resume step-up refused',
  'confirm-not-paid': 'not-paid step-up refused',
};

export async function refused(
  deps: StepUpDeps,
  seen: { purpose: RecordPurpose; user: string; subject: string },
  outcome: string,
): Promise<void> {
  const requestId = approvalOfSubject(seen.purpose, seen.subject) ?? seen.subject;
  recordAttempt(deps, { purpose: seen.purpose, user: seen.user, requestId, outcome });
  await deps.store.appendHistory(requestId, {
    at: deps.now(),
    event: REFUSED_EVENT[seen.purpose],
    by: seen.user,
    detail: outcome,
    ...(seen.purpose === 'confirm-not-paid' ? { execution: seen.subject } : {}),
  });
}

export type Begun =
  | StepUpRefusal
  | {
      kind: 'ready';
      purpose: RecordPurpose;
      subject: Subject;
      approver: string;
      approvalHash: string;
      /** Display names of the people the card mentions (their Slack ids when unknown). */
      names: ReadonlyMap<string, string>;
      options: PublicKeyCredentialRequestOptionsJSON;
    };

/** The page opened: what the card shows, and the options the browser asks the passkey with. */
export async function beginRecordStepUp(deps: StepUpDeps, bound: Bound): Promise<Begun> {
  const { data, inputs, ...subject } = bound;
  const usable = await deps.passkeys.usable(data.user, deps.now());
  if (usable.length === 0) {
    await refused(deps, { purpose: data.purpose, user: data.user, subject: data.subject }, 'no-passkey');
    return { kind: 'no-passkey' };
  }
  const options = await assertionOptions(deps, inputs, usable);
  const names = (await deps.people?.names(peopleOf(subject.record, data.user))) ?? new Map<string, string>();
  return {
    kind: 'ready',
    purpose: data.purpose,
    subject,
    approver: data.user,
    approvalHash: data.subjectHash,
    names,
    options,
  };
}

export type Finished =
  | StepUpRefusal
  | { kind: 'failed' }
  | { kind: 'decided'; outcome: ApproveOutcome }
  | { kind: 'resumed'; outcome: BatchControlOutcome }
  | { kind: 'confirmed'; outcome: ConfirmedNotPaid };

/** The passkey answered: verify, use the token with the counter, then the approve (or resume) use case. */
export async function finishRecordStepUp(
  deps: StepUpDeps,
  token: string,
  bound: Bound,
  body: unknown,
): Promise<Finished> {
  const { data, inputs } = bound;
  const seen = { purpose: data.purpose, user: data.user, subject: data.subject };
  const now = deps.now();
  // A passkey inside its cool-down, or still pending, never counts.
  const a = await verifyAssertion(
    deps,
    token,
    data.user,
    inputs,
    body,
    (p) => p.status === 'active' && p.usableFrom <= now,
  );
  if (a.kind !== 'ok') {
    await refused(deps, seen, a.kind === 'invalid' ? 'gone' : a.why);
    return a.kind === 'invalid' ? { kind: 'invalid' } : { kind: 'failed' };
  }
  const requestId = bound.record.sealed.id;
  if (data.purpose === 'confirm-not-paid') {
    const outcome = await confirmWithProof(deps, data, a.proof);
    recordAttempt(deps, { purpose: data.purpose, user: data.user, requestId, outcome: `confirm:${outcome.kind}` });
    return { kind: 'confirmed', outcome };
  }
  if (data.purpose === 'resume') {
    const outcome = await resumeBatch(deps, data.subject, data.user, a.proof);
    recordAttempt(deps, { purpose: data.purpose, user: data.user, requestId, outcome: `resume:${outcome.kind}` });
    return { kind: 'resumed', outcome };
  }
  const outcome = await approve(deps, data.subject, data.user, a.proof, data.warningsChecked === true);
  recordAttempt(deps, { purpose: data.purpose, user: data.user, requestId, outcome: `vote:${outcome.kind}` });
  return { kind: 'decided', outcome };
}
