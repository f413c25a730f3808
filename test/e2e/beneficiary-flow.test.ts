/**
 * Setting up an offramp end to end in Slack: create an identity, add a beneficiary
 * from the offramp modal (lookup, confirmation, approval, creation), then offramp to it. The
 * BVN and date of birth never appear in a log line, a message, a card or a view Rampart sends.
 */
import { describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import { currentCard, openCrossBorderForm, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const BVN = '22233344455';
const DOB_PICKED = '1990-02-01';
const DOB_SENT = '01-02-1990';

const h = useHarness('beneficiary');

const newView = async (user: string, callbackId: string, seen: Set<string>) =>
  eventually(
    () => h.fake.views(user).find((v) => v.callback_id === callbackId && !seen.has(v.id + v.hash)),
    3000,
    callbackId,
  );
const topView = (user: string) => h.fake.views(user).at(-1);

async function createIdentity(user: string) {
  await h.driver.command(user, '/identity', 'new');
  const modal = await newView(user, 'identity_modal', new Set());
  return { modal, ack: await h.driver.submitView(user, modal, { name: 'Adaeze Okafor', bvn: BVN, dob: DOB_PICKED }) };
}

describe('identity, beneficiary and offramp in Slack', () => {
  let identityId = '';
  let beneficiaryId = '';

  it('refuses identity creation by someone who is not an approver, on the form', async () => {
    const { ack } = await createIdentity(PEOPLE.requester);
    expect(ack.body).toMatchObject({
      response_action: 'errors',
      errors: { name: expect.stringContaining('Only approvers') },
    });
    h.fake.closeView(PEOPLE.requester, topView(PEOPLE.requester)?.id ?? '');
  });

  it('creates a BVN identity and shows its id with the BVN masked', async () => {
    const { ack } = await createIdentity(PEOPLE.approver1);
    expect(ack.body).toMatchObject({ response_action: 'update' });
    const result = await eventually(
      () =>
        blocksText(topView(PEOPLE.approver1)).includes('Identity created') ? topView(PEOPLE.approver1) : undefined,
      5000,
      'identity result',
    );
    expect(blocksText(result)).toContain('4455');
    identityId = /`(idn_[^`]+|[^`]+)`/.exec(blocksText(result).replace(/\\n/g, '\n'))?.[1] ?? '';
    const created = await h.rampart.deps.registry.identities();
    expect(created).toHaveLength(1);
    identityId = created[0]?.id ?? '';
    expect(h.sandbox.state.received.find((r) => r.path === '/identity')?.body).toEqual({
      type: 'BVN',
      name: 'Adaeze Okafor',
      details: { bvn: BVN, dob: DOB_SENT },
    });
  });

  it('a gateway 502 while creating an identity says "outcome unknown" and what to check, never "try again"', async () => {
    const before = h.sandbox.state.received.filter((r) => r.path === '/identity').length;
    h.sandbox.faults.failNext('/identity', 1, { status: 502, body: 'html' });
    const { ack } = await createIdentity(PEOPLE.approver2);
    expect(ack.body).toMatchObject({ response_action: 'update' });
    const result = await eventually(
      () => (blocksText(topView(PEOPLE.approver2)).includes('Outcome unknown') ? topView(PEOPLE.approver2) : undefined),
      5000,
      'identity result',
    );
    const text = blocksText(result);
    expect(text).toContain('HTTP 502');
    expect(text).toContain("the service's records");
    expect(text).not.toMatch(/try again|resubmit/i);
    expect(h.sandbox.state.received.filter((r) => r.path === '/identity')).toHaveLength(before + 1);
  });

  it('adds a beneficiary from the offramp modal: lookup, confirm, approve, create', async () => {
    await h.driver.command(PEOPLE.requester, '/offramp', '500 base:usdc from ops for supplier payout');
    const offramp = await newView(PEOPLE.requester, 'offramp_modal', new Set());
    await h.driver.click(PEOPLE.requester, { action_id: 'offramp_new_beneficiary', view: offramp });
    const form = await newView(PEOPLE.requester, 'beneficiary_ng', new Set());
    const options = await h.driver.suggest(PEOPLE.requester, form, 'identity', 'identity', 'ada');
    expect(JSON.stringify(options.body)).toContain(identityId);
    const wrong = await h.driver.submitView(PEOPLE.requester, form, {
      identity: identityId,
      bank_code: '058',
      account_number: '12345',
      reason: 'supplier',
    });
    expect(wrong.body).toMatchObject({
      response_action: 'errors',
      errors: { account_number: expect.stringContaining('10 digits') },
    });
    const looked = await h.driver.submitView(PEOPLE.requester, form, {
      identity: identityId,
      bank_code: '058',
      account_number: '0123456789',
      reason: 'new supplier Adaeze',
    });
    expect(looked.body).toMatchObject({ response_action: 'update', view: { callback_id: 'beneficiary_confirm' } });
    const confirm = await eventually(() =>
      topView(PEOPLE.requester)?.callback_id === 'beneficiary_confirm' ? topView(PEOPLE.requester) : undefined,
    );
    expect(blocksText(confirm)).toContain('ADAEZE OKAFOR');
    expect(blocksText(confirm)).not.toContain('0123456789');
    const before = h.fake.messages(APPROVALS).length;
    await h.driver.submitView(PEOPLE.requester, confirm, {});
    const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'beneficiary card');
    expect(blocksText(card)).toContain('ADAEZE OKAFOR');
    expect(blocksText(card)).toContain('••••6789');
    expect(blocksText(card)).not.toContain('0123456789');
    const id = /R-\d+/.exec(blocksText(card))?.[0] ?? '';
    await h.driver.click(PEOPLE.requester, { action_id: 'request_approve', message: card });
    await h.driver.click(PEOPLE.approver2, { action_id: 'request_approve', message: currentCard(h, id) });
    await waitForState(h, id, 'succeeded');
    const calls = h.sandbox.state.received.filter((r) => r.path === '/beneficiary');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({
      currency: 'ngn',
      identity_id: identityId,
      details: { bank_code: '058', account_number: '0123456789' },
    });
    const registered = await eventually(async () => (await h.rampart.deps.registry.beneficiaries())[0]);
    expect(registered).toMatchObject({
      holderName: 'ADAEZE OKAFOR',
      accountMasked: '••••6789',
      approvedBy: PEOPLE.approver2,
      createdBy: PEOPLE.requester,
    });
    beneficiaryId = registered.id;
    // Back on the offramp form (the pushed views are closed), which is still open underneath.
    for (const v of h.fake.views(PEOPLE.requester).filter((x) => x.callback_id !== 'offramp_modal'))
      h.fake.closeView(PEOPLE.requester, v.id);
  });

  it('offramps to the new beneficiary, chosen by its readable label; the card shows the verified holder', async () => {
    const offramp = await eventually(() =>
      h.fake.views(PEOPLE.requester).find((v) => v.callback_id === 'offramp_modal'),
    );
    const found = await h.driver.suggest(PEOPLE.requester, offramp, 'beneficiary', 'beneficiary', 'okafor');
    expect(JSON.stringify(found.body)).toContain('ADAEZE OKAFOR');
    const before = h.fake.messages(APPROVALS).length;
    const submit = await h.driver.submitView(PEOPLE.requester, offramp, { beneficiary: beneficiaryId });
    expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
    const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'offramp card');
    expect(blocksText(card)).toContain('verified by bank lookup');
    const id = /R-\d+/.exec(blocksText(card))?.[0] ?? '';
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: card });
    await waitForState(h, id, 'succeeded');
    const reply = await eventually(
      () => h.fake.thread(APPROVALS, card.ts).find((m) => m.text.includes('succeeded')),
      5000,
      'offramp reply',
    );
    expect(reply.text).toMatch(/reference: `OFR-/);
    expect(h.sandbox.state.received.filter((r) => r.path === '/offramp').map((r) => r.body)).toEqual([
      { wallet_id: 'wal_ops_7f3a', amount: 500, beneficiary_id: beneficiaryId, asset: 'base:usdc' },
    ]);
  });

  it('refuses an offramp to a beneficiary that was not approved in Rampart', async () => {
    await h.driver.command(PEOPLE.requester, '/offramp', '5 base:usdc from ops for test');
    const modal = await eventually(() =>
      h.fake
        .views(PEOPLE.requester)
        .filter((v) => v.callback_id === 'offramp_modal')
        .at(-1),
    );
    const r = await h.driver.submitView(PEOPLE.requester, modal, { beneficiary: 'ben_not_registered' });
    expect(r.body).toMatchObject({
      response_action: 'errors',
      errors: { beneficiary: expect.stringContaining('approved in Rampart') },
    });
  });

  it('shows a missing BankAddress field on its own field in the cross-border form', async () => {
    const xb = await openCrossBorderForm(h, PEOPLE.requester);
    const r = await h.driver.submitView(PEOPLE.requester, xb, {
      identity: identityId,
      bank_name: 'Barclays',
      account_name: 'Adaeze Okafor',
      iban: 'GB33BUKB20201555555555',
      swift_code: 'BUKBGB22',
      addr_house_no: '12',
      addr_street: 'High Street',
      addr_state: 'London',
      addr_postal_code: 'E1 6AN',
      addr_country: 'GB',
      reason: 'UK supplier',
    });
    expect(r.body).toMatchObject({ response_action: 'errors', errors: { addr_city: expect.stringContaining('City') } });
    expect(Object.keys((r.body as { errors: object }).errors)).toEqual(['addr_city']);
  });

  it('never puts the BVN or date of birth in a log line, message, card or view', () => {
    const outputs = JSON.stringify(h.fake.calls.map((c) => c.args));
    for (const secret of [BVN, DOB_SENT, DOB_PICKED, '0123456789']) {
      expect(h.logs.text).not.toContain(secret);
      expect(outputs).not.toContain(secret);
    }
  });
});
