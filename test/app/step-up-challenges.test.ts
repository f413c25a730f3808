/**
 * Passkey challenges with a purpose, over real Redis and real WebAuthn assertions (a software
 * authenticator): `rampart verify` holds a vote cast with a v1 challenge (no version stored,
 * over the call's SHA-256) and one cast with v2 (purpose approve, over the approvalHash the card
 * shows the first 10 characters of); the page accepts `confirm-not-paid` only while the
 * execution's outcome is unknown and hands the confirmation a verified v2 proof.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFunding } from '../../src/app/batch-funding.js';
import { approve } from '../../src/app/decide.js';
import { sealRequest } from '../../src/app/post-request.js';
import { offerStepUp } from '../../src/app/step-up.js';
import { type NotPaidConfirmation, notPaidHash, verifyNotPaidProof } from '../../src/app/step-up-confirm.js';
import type { StepUpDeps } from '../../src/app/step-up-deps.js';
import { beginStepUp, finishStepUp } from '../../src/app/step-up-page.js';
import { verifyApproval } from '../../src/app/verify-approval.js';
import {
  type ChallengeV2,
  type PasskeyProof,
  sealedApprovalHash,
  stepUpChallenge,
  stepUpChallengeV2,
  v1ApprovalHash,
} from '../../src/domain/step-up.js';
import { PasskeyStore } from '../../src/store/passkeys.js';
import { StepUpTokens } from '../../src/store/step-up-tokens.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { APPROVERS, REQUESTER, sealBatch, transfer, useWorld } from './support.js';

const ORIGIN = 'https://rampart.example.com';
const [A1 = '', A2 = ''] = APPROVERS;
const w = useWorld('step-up-challenges', { STEP_UP_ABOVE: 'USDC=1', PUBLIC_URL: ORIGIN });
let deps: StepUpDeps;
const keys = {
  [A1]: new SoftAuthenticator('rampart.example.com', ORIGIN),
  [A2]: new SoftAuthenticator('rampart.example.com', ORIGIN),
};
const confirmations: NotPaidConfirmation[] = [];

beforeAll(async () => {
  deps = {
    ...w.deps,
    passkeys: new PasskeyStore(w.redis, w.prefix),
    stepUpTokens: new StepUpTokens(w.redis, w.prefix),
    confirmNotPaid: async (c) => {
      confirmations.push(c);
      return { ok: true, kind: 'confirmed', text: `Recorded: ${c.executionId} was not paid.` };
    },
  };
  for (const [user, key] of Object.entries(keys)) await deps.passkeys.add(key.passkeyOf(user), 0);
});

async function seal(amount: number, required: number, stepUp: boolean): Promise<string> {
  const s = await sealRequest(w.deps, {
    call: transfer(amount),
    display: { chain: 'base', assetCode: 'USDC', amountText: String(amount) },
    requester: REQUESTER,
    reason: 'challenge versions',
    origin: undefined,
    required,
    rule: `${required} approvals`,
    submission: `V${randomUUID()}`,
    stepUp,
  });
  if (s.kind !== 'created') throw new Error(s.kind);
  return s.sealed.id;
}

const proofOver = (user: string, challenge: Uint8Array) => {
  const a = keys[user]?.assert(challenge);
  if (!a) throw new Error('no key');
  return { credentialId: a.id, ...a.response, counter: 1 };
};

describe('rampart verify', () => {
  it('checks a v1 vote as before and a v2 vote over the approvalHash, each by its stored version', async () => {
    const id = await seal(20_000, 2, true);
    const sealed = (await w.store.get(id))?.sealed;
    if (!sealed) throw new Error('missing');
    const full = sealedApprovalHash(sealed) ?? '';
    expect(full.slice(0, 10)).toBe(sealed.hash);
    // A vote as stored before v2: no version, the challenge over the call's SHA-256.
    const v1 = { approvalId: id, approvalHash: v1ApprovalHash(sealed), approverId: A1, nonce: 'n1' };
    const old: PasskeyProof = { ...proofOver(A1, stepUpChallenge(v1)), challenge: v1 };
    const v2: ChallengeV2 = { purpose: 'approve', subject: id, hash: full, approverId: A2, nonce: 'n2' };
    const now: PasskeyProof = { ...proofOver(A2, stepUpChallengeV2(v2)), challengeVersion: 2, challenge: v2 };
    expect((await w.store.castVote(id, A1, undefined, old)).outcome).toBe('voted');
    expect((await w.store.castVote(id, A2, undefined, now)).outcome).toBe('approved');
    const v = await verifyApproval(deps, id);
    expect(v).toMatchObject({ kind: 'checked', ok: true, stepUp: true });
    expect(v.kind === 'checked' && v.votes.map((c) => [c.user, c.ok, c.challengeVersion])).toEqual([
      [A1, true, 1],
      [A2, true, 2],
    ]);
  });

  it('fails a v2 vote whose signature commits to another purpose or the call’s own hash', async () => {
    const id = await seal(20_001, 2, true);
    const sealed = (await w.store.get(id))?.sealed;
    if (!sealed) throw new Error('missing');
    const resume: ChallengeV2 = {
      purpose: 'resume',
      subject: id,
      hash: sealedApprovalHash(sealed) ?? '',
      approverId: A1,
      nonce: 'n',
    };
    const otherHash: ChallengeV2 = {
      purpose: 'approve',
      subject: id,
      hash: v1ApprovalHash(sealed),
      approverId: A2,
      nonce: 'n',
    };
    const claims = (c: ChallengeV2): ChallengeV2 => ({
      ...c,
      purpose: 'approve',
      hash: sealedApprovalHash(sealed) ?? '',
    });
    await w.store.castVote(id, A1, undefined, {
      ...proofOver(A1, stepUpChallengeV2(resume)),
      challengeVersion: 2,
      challenge: claims(resume),
    });
    await w.store.castVote(id, A2, undefined, {
      ...proofOver(A2, stepUpChallengeV2(otherHash)),
      challengeVersion: 2,
      challenge: claims(otherHash),
    });
    const v = await verifyApproval(deps, id);
    expect(v.kind === 'checked' && v.votes.map((c) => [c.ok, c.challengeVersion])).toEqual([
      [false, 2],
      [false, 2],
    ]);
  });
});

/** An approved request (or batch) whose first execution ended with its outcome unknown. */
async function unknownExecution(amount: number, batch = false): Promise<string> {
  const id = batch ? await sealBatch(w, [amount, amount + 1]) : await seal(amount, 1, false);
  expect((await approve(w.deps, id, A1)).kind).toBe('approved');
  // A batch's first try takes the wallet's turn and passes the funding check (as executeOne does).
  if (batch) {
    await w.store.executions.start(`${id}.1`, 'worker');
    expect(await checkFunding(w.deps, id)).toBe('funded');
  }
  const started = await w.store.executions.start(`${id}.1`, 'worker', `${id}.1-t1`);
  if (!('token' in started) || !started.token) throw new Error('not started');
  await w.store.executions.finish(`${id}.1`, started.token, 'unknown', { message: 'no answer' });
  return `${id}.1`;
}

const tokenOf = (url: string): string => url.slice(url.indexOf('#') + 1);

describe('confirm-not-paid', () => {
  it('signs purpose, execution and the approvalHash, and hands the confirmation a proof that verifies', async () => {
    const exec = await unknownExecution(31.5);
    const offer = await offerStepUp(deps, exec, A2, 'confirm-not-paid', false, 'P-7');
    if (offer.kind !== 'link') throw new Error(offer.kind);
    const token = tokenOf(offer.url);
    const begun = await beginStepUp(deps, token);
    if (begun.kind !== 'ready' || !('subject' in begun)) throw new Error(begun.kind);
    expect(begun.subject.execution?.id).toBe(exec);
    const hash = (await notPaidHash(deps, exec)) ?? '';
    expect(hash.slice(0, 10)).toBe(begun.subject.record.sealed.hash);
    const body = keys[A2]?.assert(Buffer.from(begun.options.challenge, 'base64url'));
    const done = await finishStepUp(deps, token, body);
    expect(done).toMatchObject({ kind: 'confirmed', outcome: { ok: true } });
    const c = confirmations.at(-1);
    expect(c).toMatchObject({ executionId: exec, user: A2, proposal: 'P-7', proof: { challengeVersion: 2 } });
    expect(c?.proof.challenge).toMatchObject({ purpose: 'confirm-not-paid', subject: exec, hash, approverId: A2 });
    if (!c) throw new Error('no confirmation');
    // What the browser was asked to sign is exactly that v2 challenge.
    if (c.proof.challengeVersion !== 2) throw new Error('not v2');
    expect(Buffer.from(stepUpChallengeV2(c.proof.challenge)).toString('base64url')).toBe(begun.options.challenge);
    expect(await verifyNotPaidProof(deps, { user: A2, executionId: exec, subjectHash: hash, proof: c.proof })).toEqual({
      ok: true,
    });
    // The same proof says nothing about another execution, another person or another hash.
    expect(
      (await verifyNotPaidProof(deps, { user: A2, executionId: `${exec}0`, subjectHash: hash, proof: c.proof })).ok,
    ).toBe(false);
    expect(
      (await verifyNotPaidProof(deps, { user: A1, executionId: exec, subjectHash: hash, proof: c.proof })).ok,
    ).toBe(false);
    // Used once: the link is gone.
    expect(await finishStepUp(deps, token, body)).toEqual({ kind: 'invalid' });
  });

  it("shows a batch row's amount and full destination beside the batch's card", async () => {
    const exec = await unknownExecution(34.5, true);
    const offer = await offerStepUp(deps, exec, A2, 'confirm-not-paid');
    if (offer.kind !== 'link') throw new Error(offer.kind);
    const begun = await beginStepUp(deps, tokenOf(offer.url));
    if (begun.kind !== 'ready' || !('subject' in begun)) throw new Error(begun.kind);
    expect(begun.subject.execution?.id).toBe(exec);
    expect(begun.subject.row).toMatchObject({ row: 2, amount: '34.5' });
    expect(begun.approvalHash.slice(0, 10)).toBe(begun.subject.record.sealed.hash);
  });

  it('is offered and accepted only while the outcome is unknown', async () => {
    const pendingId = await seal(32.5, 1, false);
    expect(await offerStepUp(deps, `${pendingId}.1`, A2, 'confirm-not-paid')).toEqual({ kind: 'late' });
    const exec = await unknownExecution(33.5);
    const offer = await offerStepUp(deps, exec, A2, 'confirm-not-paid');
    if (offer.kind !== 'link') throw new Error(offer.kind);
    const token = tokenOf(offer.url);
    const begun = await beginStepUp(deps, token);
    if (begun.kind !== 'ready') throw new Error(begun.kind);
    // A late real answer resolves it while the page is open.
    await w.store.executions.finish(exec, '', 'succeeded', { hash: '0xabc' }, undefined, { from: ['unknown'] });
    const before = confirmations.length;
    const body = keys[A2]?.assert(Buffer.from(begun.options.challenge, 'base64url'));
    expect(await finishStepUp(deps, token, body)).toEqual({ kind: 'invalid' });
    expect(confirmations).toHaveLength(before);
    const history = await w.store.history(exec.slice(0, exec.indexOf('.')));
    expect(history.some((e) => e.event === 'not-paid step-up refused' && e.detail === 'changed')).toBe(true);
  });
});

describe('a series', () => {
  const DAY = 86_400_000;
  const runsFrom = (first: number) => [first, first + 7 * DAY, first + 14 * DAY];

  async function sealSeries(amount: number, runs: number[]): Promise<string> {
    const s = await sealRequest(w.deps, {
      id: (await w.store.allocate('S')).id,
      shape: 'series',
      call: transfer(amount),
      display: { chain: 'base', assetCode: 'USDC', amountText: String(amount) },
      requester: REQUESTER,
      reason: 'weekly retainer',
      origin: undefined,
      required: 1,
      rule: '1 approval',
      submission: `V${randomUUID()}`,
      stepUp: true,
      schedule: { every: { unit: 'weeks', n: 1 }, at: '09:00', zone: 'UTC', ends: { after: 3 }, runs },
    });
    if (s.kind !== 'created') throw new Error(s.kind);
    return s.sealed.id;
  }

  it('signs purpose series over the template and the run dates on the page, and the vote verifies', async () => {
    const runs = runsFrom(Date.UTC(2026, 11, 7, 9));
    const id = await sealSeries(40_000, runs);
    const sealed = (await w.store.get(id))?.sealed;
    if (!sealed) throw new Error('missing');
    const full = sealedApprovalHash(sealed) ?? '';
    // The run dates are part of it: the same template on other dates hashes apart.
    const { schedule: _dates, ...template } = sealed;
    expect(sealedApprovalHash(template)).toBeUndefined();
    const offer = await offerStepUp(deps, id, A1);
    if (offer.kind !== 'link') throw new Error(offer.kind);
    const begun = await beginStepUp(deps, tokenOf(offer.url));
    if (begun.kind !== 'ready' || !('approvalHash' in begun)) throw new Error(begun.kind);
    expect(begun.approvalHash).toBe(full);
    const body = keys[A1]?.assert(Buffer.from(begun.options.challenge, 'base64url'));
    // At its quorum a series schedules its first run's job.
    const queues = { ...w.deps.queues, scheduleSeriesRun: async () => {} } as typeof w.deps.queues;
    expect(await finishStepUp({ ...deps, queues }, tokenOf(offer.url), body)).toMatchObject({ kind: 'decided' });
    const record = await w.store.get(id);
    expect(record?.approvalState as string).toBe('live');
    expect(record?.votes[0]?.passkey?.challenge).toMatchObject({ purpose: 'series', subject: id, hash: full });
    expect(await verifyApproval(deps, id)).toMatchObject({ kind: 'checked', ok: true });
  });

  it('refuses a passkey proof made for the same series with other run dates, or as a payment’s approve', async () => {
    const runs = runsFrom(Date.UTC(2026, 11, 8, 9));
    const id = await sealSeries(40_001, runs);
    const other = await sealSeries(40_001, runsFrom(Date.UTC(2026, 11, 9, 9)));
    const [mine, theirs] = await Promise.all([w.store.get(id), w.store.get(other)]);
    if (!mine || !theirs) throw new Error('missing');
    const full = sealedApprovalHash(mine.sealed) ?? '';
    const otherDates = sealedApprovalHash({ ...theirs.sealed, hash: '' }) ?? '';
    expect(otherDates).not.toBe(full);
    const signed = (c: ChallengeV2): PasskeyProof => ({
      ...proofOver(c.approverId, stepUpChallengeV2(c)),
      challengeVersion: 2,
      // What the vote claims: the series' own purpose and hash.
      challenge: { ...c, purpose: 'series', hash: full },
    });
    await w.store.castVote(
      id,
      A1,
      undefined,
      signed({ purpose: 'series', subject: id, hash: otherDates, approverId: A1, nonce: 'n' }),
    );
    expect(await verifyApproval(deps, id)).toMatchObject({ kind: 'checked', ok: false });
    const again = await sealSeries(40_002, runs);
    const sealedAgain = (await w.store.get(again))?.sealed;
    if (!sealedAgain) throw new Error('missing');
    const fullAgain = sealedApprovalHash(sealedAgain) ?? '';
    await w.store.castVote(again, A2, undefined, {
      ...proofOver(
        A2,
        stepUpChallengeV2({ purpose: 'approve', subject: again, hash: fullAgain, approverId: A2, nonce: 'n' }),
      ),
      challengeVersion: 2,
      challenge: { purpose: 'series', subject: again, hash: fullAgain, approverId: A2, nonce: 'n' },
    });
    expect(await verifyApproval(deps, again)).toMatchObject({ kind: 'checked', ok: false });
  });
});
