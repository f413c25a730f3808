/**
 * Passkey step-up of a vote (issue 22, DESIGN invariant 9): Approve on a step-up request offers a
 * one-time link; the page asks for the passkey over a challenge bound to the sealed call, and
 * only a verified assertion, used once with its token, reaches the same approve use case. A
 * paused step-up batch is resumed the same way (issue 20 "Pauses"): Resume needs a passkey too.
 */
import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { RequestRecord } from '../domain/request.js';
import type { ChallengeInputs } from '../domain/step-up.js';
import type { TokenData } from '../store/step-up-tokens.js';
import { type BatchControlOutcome, resumeBatch } from './batch-control.js';
import { type ApproveOutcome, approve, authorise } from './decide.js';
import { assertionOptions, verifyAssertion } from './step-up-assert.js';
import { recordAttempt, relyingParty, STEP_UP_TOKEN_MS, type StepUpDeps } from './step-up-deps.js';
import { stepUpHash } from './step-up-subject.js';

export { assertionSchema } from './step-up-assert.js';

export type Offer = { kind: 'link'; url: string } | { kind: 'no-passkey'; waiting: boolean } | { kind: 'late' };

type RecordPurpose = 'approve' | 'resume';

/** The state a record must be in for each purpose: pending for a vote, a paused batch for Resume. */
const fits = (purpose: RecordPurpose, r: RequestRecord | undefined): r is RequestRecord =>
  purpose === 'approve' ? r?.state === 'pending' : r?.approvalState === 'paused';

/** After Approve (or Resume) was refused for want of a passkey: a link for this approver and this approval only. */
export async function offerStepUp(
  deps: StepUpDeps,
  requestId: string,
  user: string,
  purpose: RecordPurpose = 'approve',
  /** Issue 20 §5: the click confirmed the card's warnings; the vote the page records says so. */
  warningsChecked = false,
): Promise<Offer> {
  const now = deps.now();
  const usable = await deps.passkeys.usable(user, now);
  if (usable.length === 0) return { kind: 'no-passkey', waiting: (await deps.passkeys.list(user)).length > 0 };
  const record = await deps.store.get(requestId);
  const subjectHash = fits(purpose, record) ? await stepUpHash(deps.store, record) : undefined;
  if (subjectHash === undefined) return { kind: 'late' };
  const token = await deps.stepUpTokens.issue(
    {
      purpose,
      user,
      subject: requestId,
      subjectHash,
      nonce: randomBytes(32).toString('base64url'),
      expiresAt: now + STEP_UP_TOKEN_MS,
      ...(warningsChecked ? { warningsChecked: true } : {}),
    },
    now,
  );
  // The token rides in the fragment: never in a request line, a log or a referrer.
  return { kind: 'link', url: `${relyingParty(deps.config).base}/step-up#${token}` };
}

export type StepUpRefusal = { kind: 'invalid' } | { kind: 'limited' } | { kind: 'no-passkey' };

export interface Bound {
  data: TokenData & { purpose: RecordPurpose };
  record: RequestRecord;
  inputs: ChallengeInputs;
}

/** Checks a counted token still fits its approval exactly as it was. */
export async function bindRecord(deps: StepUpDeps, data: Bound['data']): Promise<Bound | StepUpRefusal> {
  const seen = { purpose: data.purpose, user: data.user, requestId: data.subject };
  const record = await deps.store.get(data.subject);
  if (!fits(data.purpose, record) || (await stepUpHash(deps.store, record)) !== data.subjectHash) {
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

export async function refused(
  deps: StepUpDeps,
  seen: { purpose: RecordPurpose; user: string; requestId: string },
  outcome: string,
): Promise<void> {
  recordAttempt(deps, { ...seen, outcome });
  await deps.store.appendHistory(seen.requestId, {
    at: deps.now(),
    event: seen.purpose === 'approve' ? 'step-up refused' : 'resume step-up refused',
    by: seen.user,
    detail: outcome,
  });
}

export type Begun =
  | StepUpRefusal
  | {
      kind: 'ready';
      purpose: RecordPurpose;
      record: RequestRecord;
      approver: string;
      approvalHash: string;
      options: PublicKeyCredentialRequestOptionsJSON;
    };

/** The page opened: what the card shows, and the options the browser asks the passkey with. */
export async function beginRecordStepUp(deps: StepUpDeps, bound: Bound): Promise<Begun> {
  const usable = await deps.passkeys.usable(bound.data.user, deps.now());
  if (usable.length === 0) {
    await refused(
      deps,
      { purpose: bound.data.purpose, user: bound.data.user, requestId: bound.data.subject },
      'no-passkey',
    );
    return { kind: 'no-passkey' };
  }
  const options = await assertionOptions(deps, bound.inputs, usable);
  return {
    kind: 'ready',
    purpose: bound.data.purpose,
    record: bound.record,
    approver: bound.data.user,
    approvalHash: bound.data.subjectHash,
    options,
  };
}

export type Finished =
  | StepUpRefusal
  | { kind: 'failed' }
  | { kind: 'decided'; outcome: ApproveOutcome }
  | { kind: 'resumed'; outcome: BatchControlOutcome };

/** The passkey answered: verify, use the token with the counter, then the approve (or resume) use case. */
export async function finishRecordStepUp(
  deps: StepUpDeps,
  token: string,
  bound: Bound,
  body: unknown,
): Promise<Finished> {
  const { data, inputs } = bound;
  const seen = { purpose: data.purpose, user: data.user, requestId: data.subject };
  const now = deps.now();
  // A passkey inside its cool-down, or still pending, never counts (issue 22 "Enrolment").
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
  if (data.purpose === 'resume') {
    const outcome = await resumeBatch(deps, data.subject, data.user, a.proof);
    recordAttempt(deps, { ...seen, outcome: `resume:${outcome.kind}` });
    return { kind: 'resumed', outcome };
  }
  const outcome = await approve(deps, data.subject, data.user, a.proof, data.warningsChecked === true);
  recordAttempt(deps, { ...seen, outcome: `vote:${outcome.kind}` });
  return { kind: 'decided', outcome };
}
