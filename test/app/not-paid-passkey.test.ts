/**
 * Confirming not-paid on a payment approved with passkeys, through the app as the web role binds
 * it (createApp): a click is refused and changes nothing; the confirmer's passkey on the page
 * (a v2 challenge, purpose confirm-not-paid, a real WebAuthn assertion from a software
 * authenticator) moves the execution to failed once, keeps the proof with the outcome, and the
 * proposer's own passkey still cannot confirm their proposal.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { FacadeDeps } from '../../src/app/facade-deps.js';
import { createApp, type RampartApp } from '../../src/app/index.js';
import { sealRequest } from '../../src/app/post-request.js';
import { slackActor } from '../../src/domain/actor.js';
import { ApiKeyStore } from '../../src/store/api-keys.js';
import { UnfreezeStore } from '../../src/store/controls.js';
import { PasskeyStore } from '../../src/store/passkeys.js';
import { SeriesStore } from '../../src/store/series.js';
import { StepUpTokens } from '../../src/store/step-up-tokens.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { APPROVERS, REQUESTER, transfer, useWorld } from './support.js';

const ORIGIN = 'https://rampart.example.com';
const [A1 = '', A2 = ''] = APPROVERS;
const keys = {
  [A1]: new SoftAuthenticator('rampart.example.com', ORIGIN),
  [A2]: new SoftAuthenticator('rampart.example.com', ORIGIN),
};
const w = useWorld('not-paid-passkey', { PUBLIC_URL: ORIGIN });
let app: RampartApp;

beforeAll(async () => {
  const passkeys = new PasskeyStore(w.redis, w.prefix);
  const deps: FacadeDeps = {
    ...w.deps,
    identityCreators: w.deps.approvers,
    unfreeze: new UnfreezeStore(w.redis, w.prefix, w.controls),
    passkeys,
    stepUpTokens: new StepUpTokens(w.redis, w.prefix),
    apiKeys: new ApiKeyStore(w.redis, w.prefix),
    series: new SeriesStore(w.redis, w.store.keys),
  };
  for (const [user, key] of Object.entries(keys)) await passkeys.add(key.passkeyOf(user), 0);
  app = createApp(deps);
});

/** A request sealed with step-up, approved with a passkey, started, then left outcome unknown. */
async function unknownStepUpPayment(): Promise<string> {
  const s = await sealRequest(w.deps, {
    call: transfer(41.5),
    display: { chain: 'base', assetCode: 'USDC', amountText: '41.5' },
    requester: REQUESTER,
    reason: 'passkey confirmation',
    origin: undefined,
    required: 1,
    rule: '1 approval',
    submission: `V${randomUUID()}`,
    stepUp: true,
  });
  if (s.kind !== 'created') throw new Error(s.kind);
  const id = s.sealed.id;
  // The vote script only asks that a passkey came with the vote; the page verified it.
  const proof = { credentialId: 'c', authenticatorData: 'a', clientDataJSON: 'd', signature: 's', counter: 1 };
  const challenge = { approvalId: id, approvalHash: 'h', approverId: A1, nonce: 'n' };
  expect((await w.store.castVote(id, A1, undefined, { ...proof, challenge })).outcome).toBe('approved');
  const started = await w.store.executions.start(`${id}.1`, 'worker', `${id}.1-t1`);
  if (!('token' in started) || !started.token) throw new Error('not started');
  await w.store.executions.finish(`${id}.1`, started.token, 'unknown', { message: 'the service answered 502' });
  return `${id}.1`;
}

async function propose(by: string, exec: string): Promise<string> {
  const proposed = await app.executions.resolve(slackActor(by), {
    id: exec,
    paid: false,
    note: 'no debit on the wallet',
  });
  if (proposed.kind !== 'proposed') throw new Error(proposed.kind);
  return proposed.proposal.id;
}

/** The page: open the link, sign its challenge with `user`'s passkey, send the answer. */
async function confirmOnPage(user: string, exec: string, proposal: string) {
  const offer = await app.passkeys.offerNotPaid(exec, slackActor(user), proposal);
  if (offer.kind !== 'link') throw new Error(offer.kind);
  const token = offer.url.slice(offer.url.indexOf('#') + 1);
  const begun = await app.passkeys.beginStepUp(token, undefined);
  if (begun.kind !== 'ready') throw new Error(begun.kind);
  const body = keys[user]?.assert(Buffer.from(begun.options.challenge, 'base64url'));
  return app.passkeys.finishStepUp(token, body, undefined);
}

it('refuses the click, then confirms once with the second approver’s passkey and keeps the proof', async () => {
  const exec = await unknownStepUpPayment();
  const proposal = await propose(A1, exec);
  const clicked = await app.executions.confirmNotPaid(slackActor(A2), exec, proposal);
  expect(clicked).toMatchObject({ kind: 'refused', why: 'needs-passkey' });
  expect((await w.store.executions.get(exec))?.state).toBe('unknown');

  const done = await confirmOnPage(A2, exec, proposal);
  expect(done).toMatchObject({ kind: 'confirmed', outcome: { ok: true, kind: 'confirmed' } });
  const after = await w.store.executions.get(exec);
  expect(after?.state).toBe('failed');
  expect(after?.outcome?.resolution).toMatchObject({
    by: A2,
    paid: false,
    proposal: { id: proposal, by: A1 },
    passkey: { challengeVersion: 2, challenge: { purpose: 'confirm-not-paid', subject: exec, approverId: A2 } },
  });
});

it('does not let the proposer confirm their own proposal with their passkey', async () => {
  const exec = await unknownStepUpPayment();
  const proposal = await propose(A2, exec);
  const done = await confirmOnPage(A2, exec, proposal);
  expect(done).toMatchObject({ kind: 'confirmed', outcome: { ok: false } });
  expect((await w.store.executions.get(exec))?.state).toBe('unknown');
});
