/**
 * With STEP_UP_NEW_DESTINATION=on, every door that adds a payout destination asks for a passkey,
 * as a transfer to a new address does: `/beneficiary register` (signed requests through the
 * harness) and `rampart beneficiaries import`. Registered is not paid: an offramp below
 * STEP_UP_ABOVE to a beneficiary no offramp ever reached needs a passkey too, and once one
 * offramp to it succeeded, the next needs a click only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyApproval } from '../../src/app/verify-approval.js';
import { fullAddress } from '../../src/presenters/address.js';
import { newKey, startApi } from '../api/support.js';
import { cli } from '../cli/support.js';
import { APPROVALS, blocksText, envFor, eventually, PEOPLE } from '../support/harness.js';
import * as passkey from '../support/passkey-browser.js';
import * as flow from '../support/requests.js';
import { seedBeneficiary, seedPayee } from '../support/seed-service.js';

let dir = '';
const payee = { identityId: '', beneficiaryId: '' };
const STEP_UP = { STEP_UP_NEW_DESTINATION: 'on', STEP_UP_ABOVE: 'USDC=10000' };

const { pages, h, browsers } = passkey.useStepUpHarness('step-up-destinations', STEP_UP);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-step-up-import-'));
  const who = { name: 'Ngozi Okafor', bvn: '22266677788', dob: '14-03-1990' };
  Object.assign(payee, await seedPayee(h.sandbox, who, '057', '3344556677'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Submits `/<command> text`'s modal with `values` and returns the id on the new card. */
async function submitForCard(command: string, text: string, callbackId: string, values: Record<string, string>) {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, command, text);
  const view = await flow.newView(h, PEOPLE.requester, callbackId, seen);
  // The identity and beneficiary pickers are external selects: Slack asks for options first.
  for (const field of ['identity', 'beneficiary'])
    if (values[field]) await h.driver.suggest(PEOPLE.requester, view, field, field, values[field]);
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.submitView(PEOPLE.requester, view, values);
  expect(ack.body, JSON.stringify(ack.body)).toMatchObject({
    response_action: expect.stringMatching(/^(update|clear)$/),
  });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, `${command} card`);
  return /R-\d+/.exec(blocksText(card))?.[0] ?? '';
}

const register = () =>
  submitForCard('/beneficiary', 'register', 'beneficiary_register', {
    beneficiary_id: payee.beneficiaryId,
    identity: payee.identityId,
    label: 'Ngozi Okafor · Zenith',
    bank_name: 'Zenith Bank',
    account_last4: '6677',
    reason: 'supplier paid through the dashboard since May',
  });

const offramp = (note: string) =>
  submitForCard('/offramp', `300 base:usdc from ops for ${note}`, 'offramp_modal', {
    beneficiary: payee.beneficiaryId,
  });

const passkeyLink = (user: string, id: string) => passkey.offeredLink(h, user, id);

async function approveWithPasskey(a: passkey.Approver, id: string): Promise<void> {
  await flow.click(h, PEOPLE.approver1, id, 'request_approve');
  await passkey.openLink(a, await passkeyLink(PEOPLE.approver1, id));
  expect(await passkey.pressAndRead(a)).toContain('Approved with your passkey');
}

describe('STEP_UP_NEW_DESTINATION=on: every new destination asks for a passkey', () => {
  let approver1: passkey.Approver;
  let registration = '';

  it('/beneficiary register is a step-up request: a plain Approve click counts nothing', async () => {
    registration = await register();
    const record = await h.rampart.deps.store.get(registration);
    expect(record?.sealed.call.kind).toBe('register-beneficiary');
    expect(record?.sealed.stepUp).toBe(true);
    expect(blocksText(flow.currentCard(h, registration))).toContain('each with the approver’s passkey');
    await passkey.expectPlainApproveCountsNothing(h, PEOPLE.approver1, registration);
    expect(await h.rampart.deps.registry.beneficiary(payee.beneficiaryId)).toBeUndefined();
  });

  it('approved with a passkey, the registration records the beneficiary', async () => {
    approver1 = await passkey.enrolledFromBootstrap(browsers, h.rampart.deps, PEOPLE.approver1);
    await approveWithPasskey(approver1, registration);
    const done = await flow.waitForState(h, registration, 'succeeded');
    expect(done.votes.map((v) => [v.user, v.passkey?.challenge])).toEqual([
      [PEOPLE.approver1, expect.objectContaining({ purpose: 'approve', subject: registration })],
    ]);
    expect(await h.rampart.deps.registry.beneficiary(payee.beneficiaryId)).toMatchObject({ requestId: registration });
    expect(await verifyApproval(h.rampart.deps, registration)).toMatchObject({
      kind: 'checked',
      ok: true,
      stepUp: true,
    });
  });

  it('POST /offramps (the HTTP API) to the same never-paid beneficiary makes a step-up request as well', async () => {
    const api = await startApi(h);
    try {
      const { token } = await newKey(api);
      const created = await api.call('POST', '/offramps', {
        token,
        idempotencyKey: 'never-paid-1',
        body: {
          wallet: 'ops',
          asset: 'base:usdc',
          amount: '250',
          beneficiary: payee.beneficiaryId,
          reason: 'invoice 9',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await h.rampart.deps.store.get(String(created.json.id)))?.sealed.stepUp).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('an offramp below STEP_UP_ABOVE to the registered but never-paid beneficiary needs a passkey', async () => {
    const id = await offramp('first invoice');
    expect((await h.rampart.deps.store.get(id))?.sealed.stepUp).toBe(true);
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    await passkeyLink(PEOPLE.approver1, id);
    await flow.quiescent(h);
    const pending = await h.rampart.deps.store.get(id);
    expect([pending?.state, pending?.votes]).toEqual(['pending', []]);
    expect(flow.serviceCalls(h, '/offramp')).toHaveLength(0);
    await passkey.openLink(approver1, await passkeyLink(PEOPLE.approver1, id));
    expect(await passkey.pressAndRead(approver1)).toContain('Approved with your passkey');
    await flow.waitForState(h, id, 'succeeded');
    expect(flow.serviceCalls(h, '/offramp')).toHaveLength(1);
  });

  it('once an offramp to it succeeded, the next one below STEP_UP_ABOVE needs a click only', async () => {
    const id = await offramp('second invoice');
    expect((await h.rampart.deps.store.get(id))?.sealed.stepUp).toBeUndefined();
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const done = await flow.waitForState(h, id, 'succeeded');
    expect(done.votes.map((v) => [v.user, v.passkey])).toEqual([[PEOPLE.approver1, undefined]]);
    expect(flow.serviceCalls(h, '/offramp')).toHaveLength(2);
  });

  it('an address-book import asks a passkey for purpose entry, and its page shows every entry in full', async () => {
    const [first, second] = [`0x${'1a'.repeat(20)}`, `0x${'2b'.repeat(20)}`];
    const path = join(dir, 'addresses.csv');
    await writeFile(
      path,
      `name,chain,address\nAcme payroll wallet,base,${first}\nKofi supplier,base,${second}\n`,
      'utf8',
    );
    const before = h.fake.messages(APPROVALS).length;
    const env = envFor(h.prefix, h.sandbox, h.fake, { ...STEP_UP, PUBLIC_URL: pages.publicUrl });
    const r = await cli(['addresses', 'import', path, '--as', PEOPLE.requester, '--reason', 'day one payees'], env);
    expect(r.code, r.stderr).toBe(0);
    const id = /R-\d+/.exec(r.stdout)?.[0] ?? '';
    expect((await h.rampart.deps.store.get(id))?.sealed.stepUp).toBe(true);
    await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'import card');
    await flow.click(h, PEOPLE.approver1, id, 'request_approve');
    const page = await passkey.openLink(approver1, await passkeyLink(PEOPLE.approver1, id));
    // The approver signs what they read: both entries, each address whole.
    for (const text of ['Acme payroll wallet', 'Kofi supplier', fullAddress(first), fullAddress(second)])
      expect(page).toContain(text);
    expect(await passkey.pressAndRead(approver1)).toContain('Approved with your passkey');
    const done = await flow.waitForState(h, id, 'succeeded');
    // The signature names what the vote was on: an entry, never a payment's `approve`.
    expect(done.votes.map((v) => [v.user, v.passkey?.challenge])).toEqual([
      [PEOPLE.approver1, expect.objectContaining({ purpose: 'entry', subject: id })],
    ]);
    expect(await verifyApproval(h.rampart.deps, id)).toMatchObject({ kind: 'checked', ok: true, stepUp: true });
  });

  it('rampart beneficiaries import is a step-up request: a plain Approve click counts nothing', async () => {
    const another = await seedBeneficiary(h.sandbox, payee.identityId, '058', '4455667788');
    const path = join(dir, 'suppliers.csv');
    await writeFile(
      path,
      `beneficiary_id,identity_id,label,bank_name,account_last4\n${another},${payee.identityId},Ngozi GTB,Guaranty Trust Bank,7788\n`,
      'utf8',
    );
    const before = h.fake.messages(APPROVALS).length;
    const env = envFor(h.prefix, h.sandbox, h.fake, { ...STEP_UP, PUBLIC_URL: pages.publicUrl });
    const r = await cli(
      ['beneficiaries', 'import', path, '--requester', PEOPLE.requester, '--reason', 'day one suppliers'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const id = /^R-\d+/.exec(r.stdout)?.[0] ?? '';
    expect((await h.rampart.deps.store.get(id))?.sealed.stepUp).toBe(true);
    await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'import card');
    await passkey.expectPlainApproveCountsNothing(h, PEOPLE.approver2, id);
    expect(await h.rampart.deps.registry.beneficiary(another)).toBeUndefined();
  });
});
