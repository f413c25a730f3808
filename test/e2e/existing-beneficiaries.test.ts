/**
 * Day one at a service that already holds beneficiaries: the sandbox is
 * seeded through its own HTTP interface. The offramp picker says what to do when it finds
 * nothing; an existing beneficiary id is registered through an approval (no service call: the
 * card says what is only as stated), recorded once, and paid by an offramp whose body is exact.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredView } from '../../devkit/index.js';
import { APPROVALS, blocksText, eventually, expectNoPersonalData, PEOPLE } from '../support/harness.js';
import { click, currentCard, newView, serviceCalls, threadOf, waitForState } from '../support/requests.js';
import { seedBeneficiary, seedPayee } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

const BVN = '22255566677';
const DOB = '02-07-1985';
const ACCOUNT = '2233445566';

const h = useHarness('existing-beneficiaries');
const payee = { identityId: '', beneficiaryId: '' };
const answers: unknown[] = [];

beforeAll(async () => {
  Object.assign(payee, await seedPayee(h.sandbox, { name: 'Chinedu Bello', bvn: BVN, dob: DOB }, '057', ACCOUNT));
});

interface Group {
  label: { text: string };
  options: Array<{ text: { text: string }; value: string; description?: { text: string } }>;
}

async function options(view: StoredView, actionId: string, typed: string): Promise<Group[]> {
  const r = await h.driver.suggest(PEOPLE.requester, view, actionId, actionId, typed);
  answers.push(r.body);
  return (r.body as { option_groups: Group[] }).option_groups;
}

async function openOfframp(text: string) {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/offramp', text);
  return newView(h, PEOPLE.requester, 'offramp_modal', seen);
}

async function openRegister(): Promise<StoredView> {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/beneficiary', 'register');
  return newView(h, PEOPLE.requester, 'beneficiary_register', seen);
}

const good = () => ({
  beneficiary_id: payee.beneficiaryId,
  identity: payee.identityId,
  label: 'Chinedu Bello · Zenith',
  bank_name: 'Zenith Bank',
  account_last4: '5566',
  reason: 'supplier paid through the dashboard since March',
});

async function registerAndCard(form: StoredView): Promise<{ id: string }> {
  await options(form, 'identity', payee.identityId);
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.submitView(PEOPLE.requester, form, good());
  expect(ack.body, JSON.stringify(ack.body)).toMatchObject({ response_action: 'update' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'registration card');
  return { id: /R-\d+/.exec(blocksText(card))?.[0] ?? '' };
}

describe('beneficiaries that already exist at the service', () => {
  let offramp: StoredView;
  let requestId = '';

  it('the offramp picker says what to do next when Rampart has no beneficiary, or finds none', async () => {
    offramp = await openOfframp('300 base:usdc from ops for Chinedu invoice 7');
    const empty = await options(offramp, 'beneficiary', '');
    expect(empty.map((g) => g.label.text)).toEqual(['No beneficiaries in Rampart yet']);
    expect(empty[0]?.options.map((o) => o.text.text)).toEqual([
      'Already at the service? Use an existing beneficiary id…',
      'A new bank account? New beneficiary…',
    ]);
    const byId = await options(offramp, 'beneficiary', payee.beneficiaryId);
    expect(byId[0]?.label.text).toMatch(/^“ben_.+” is not registered in Rampart$/);
    const chosenNote = await h.driver.submitView(PEOPLE.requester, offramp, {
      beneficiary: empty[0]?.options[0]?.value ?? '',
    });
    expect(chosenNote.body).toMatchObject({
      response_action: 'errors',
      errors: { beneficiary: expect.stringContaining('Use an existing beneficiary id…') },
    });
  });

  it('refuses bad stated details on their own fields, without echoing a long number', async () => {
    await h.driver.click(PEOPLE.requester, { action_id: 'offramp_existing_beneficiary', view: offramp });
    const form = await newView(h, PEOPLE.requester, 'beneficiary_register', new Set());
    await options(form, 'identity', payee.identityId);
    const r = await h.driver.submitView(PEOPLE.requester, form, {
      ...good(),
      label: `Chinedu ${BVN}`,
      account_last4: ACCOUNT,
    });
    expect(r.body).toMatchObject({
      response_action: 'errors',
      errors: {
        label: expect.stringContaining('looks like a BVN'),
        account_last4: expect.stringContaining('only the last four digits'),
      },
    });
    expect(JSON.stringify(r.body)).not.toContain(BVN);
    h.fake.closeView(PEOPLE.requester, form.id);
  });

  it('refuses an identity the service does not know', async () => {
    const form = await openRegister();
    const r = await h.driver.submitView(PEOPLE.requester, form, { ...good(), identity: 'idn_0000nosuchone1' });
    expect(r.body).toMatchObject({
      response_action: 'errors',
      errors: { identity: expect.stringContaining('knows no identity with this id') },
    });
    h.fake.closeView(PEOPLE.requester, form.id);
  });

  it('posts a card that says what was checked with the service and what is only stated', async () => {
    const form = await openRegister();
    ({ id: requestId } = await registerAndCard(form));
    const text = blocksText(currentCard(h, requestId));
    expect(text).toContain('Existing beneficiaries');
    expect(text).toContain(payee.beneficiaryId);
    expect(text).toContain('Zenith Bank ••••5566');
    expect(text).toContain('*As stated by <@U0REQUESTER>, not checked:*');
    expect(text).toContain(`identity \`${payee.identityId}\` (BVN ••••6677) exists and is active`);
    expect(text).toContain('Nothing is sent to the service');
  });

  it('once approved, records it once and calls nothing at the service', async () => {
    await click(h, PEOPLE.approver1, requestId, 'request_approve');
    await waitForState(h, requestId, 'succeeded');
    expect(serviceCalls(h, '/beneficiary')).toHaveLength(1); // only the seeding one
    expect(await h.rampart.deps.registry.beneficiaries()).toEqual([
      expect.objectContaining({
        id: payee.beneficiaryId,
        identityId: payee.identityId,
        label: 'Chinedu Bello · Zenith',
        bankName: 'Zenith Bank',
        accountMasked: '••••5566',
        asStated: true,
        createdBy: PEOPLE.requester,
        approvedBy: PEOPLE.approver1,
        requestId,
      }),
    ]);
    const events = (await h.rampart.deps.store.history(requestId)).map((e) => e.event);
    expect(events.filter((e) => e === 'executing')).toHaveLength(1);
    await eventually(() => threadOf(h, requestId).find((m) => m.text.includes('registered as stated')));
  });

  it('a second registration of the same id is refused on the form', async () => {
    const form = await openRegister();
    await options(form, 'identity', payee.identityId);
    const r = await h.driver.submitView(PEOPLE.requester, form, good());
    expect(r.body).toMatchObject({
      response_action: 'errors',
      errors: { beneficiary_id: expect.stringContaining(`already in Rampart's registry (${requestId})`) },
    });
    h.fake.closeView(PEOPLE.requester, form.id);
  });

  it('is then an offramp payee; the card marks it as stated and the service receives exactly the approved body', async () => {
    const view = await openOfframp('300 base:usdc from ops for Chinedu invoice 7');
    const found = await options(view, 'beneficiary', '5566');
    expect(found[0]?.options).toEqual([
      expect.objectContaining({
        value: payee.beneficiaryId,
        text: expect.objectContaining({ text: 'Chinedu Bello · Zenith · Zenith Bank ••••5566' }),
        description: expect.objectContaining({ text: expect.stringContaining('as stated when registered') }),
      }),
    ]);
    const before = h.fake.messages(APPROVALS).length;
    const submit = await h.driver.submitView(PEOPLE.requester, view, { beneficiary: payee.beneficiaryId });
    expect(submit.body, JSON.stringify(submit.body)).toMatchObject({ response_action: 'clear' });
    const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'offramp card');
    expect(blocksText(card)).toContain(
      'Zenith Bank ••••5566, account digits and label are as stated by <@U0REQUESTER>, not checked with the service',
    );
    const id = /R-\d+/.exec(blocksText(card))?.[0] ?? '';
    await click(h, PEOPLE.approver2, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    expect(serviceCalls(h, '/offramp').map((c) => c.body)).toEqual([
      { wallet_id: 'wal_ops_7f3a', amount: 300, beneficiary_id: payee.beneficiaryId, asset: 'base:usdc' },
    ]);
  });

  it('two pending registrations of one id: the first approved registers it, the second registers nothing', async () => {
    const second = await seedBeneficiary(h.sandbox, payee.identityId, '058', '0123456789');
    const ids: string[] = [];
    for (const label of ['Chinedu GTB one', 'Chinedu GTB two']) {
      const form = await openRegister();
      await options(form, 'identity', payee.identityId);
      const before = h.fake.messages(APPROVALS).length;
      const ack = await h.driver.submitView(PEOPLE.requester, form, {
        ...good(),
        beneficiary_id: second,
        label,
        bank_name: 'Guaranty Trust Bank',
        account_last4: '6789',
      });
      expect(ack.body, JSON.stringify(ack.body)).toMatchObject({ response_action: 'update' });
      const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'registration card');
      ids.push(/R-\d+/.exec(blocksText(card))?.[0] ?? '');
    }
    const [first = '', late = ''] = ids;
    await click(h, PEOPLE.approver1, first, 'request_approve');
    await waitForState(h, first, 'succeeded');
    await click(h, PEOPLE.approver1, late, 'request_approve');
    const failed = await waitForState(h, late, 'failed');
    expect(failed.outcome?.message).toContain('registered meanwhile by another request, so nothing was registered');
    expect(await h.rampart.deps.registry.beneficiary(second)).toMatchObject({
      label: 'Chinedu GTB one',
      requestId: first,
    });
  });

  it('never shows a BVN, date of birth or account number in a log line or anything sent to Slack', () => {
    expectNoPersonalData(h, [BVN, DOB, '1985-07-02', ACCOUNT, '0123456789'], answers);
  });
});
