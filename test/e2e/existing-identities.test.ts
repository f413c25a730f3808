/**
 * Day one at a service that already holds identities: the sandbox is seeded
 * through its own HTTP interface, never through Rampart. A typed identity id is checked live
 * with GET /identity and offered, remembered (masked) for the next search, refused when
 * inactive, explained when unknown, and a beneficiary is created and approved for it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, expectNoPersonalData, PEOPLE } from '../support/harness.js';
import { currentCard, ephemeralText, newView, serviceCalls, waitForState } from '../support/requests.js';
import { deactivateIdentity, seedIdentity } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

const BVN = '22211133344';
const INACTIVE_BVN = '22299988877';
const DOB = '14-03-1988';
const ACCOUNT = '0123456789';

const h = useHarness('existing-identities');
let existing = '';
let inactive = '';
const answers: unknown[] = [];

beforeAll(async () => {
  existing = await seedIdentity(h.sandbox, 'Ngozi Eze', BVN, DOB);
  inactive = await seedIdentity(h.sandbox, 'Tunde Bakare', INACTIVE_BVN, DOB);
  deactivateIdentity(h.sandbox, inactive);
});

interface Group {
  label: { text: string };
  options: Array<{ text: { text: string }; value: string; description?: { text: string } }>;
}

async function openForm() {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/beneficiary', 'new');
  return newView(h, PEOPLE.requester, 'beneficiary_ng', seen);
}

async function suggest(view: Awaited<ReturnType<typeof openForm>>, typed: string): Promise<Group[]> {
  const r = await h.driver.suggest(PEOPLE.requester, view, 'identity', 'identity', typed);
  answers.push(r.body);
  expect(r.status).toBe(200);
  expect(r.ackMs).toBeLessThan(3000);
  return (r.body as { option_groups: Group[] }).option_groups;
}

const identityCalls = () => h.sandbox.state.received.filter((r) => r.method === 'GET' && r.path === '/identity');

/** Submits the GTBank account for `identity` and expects the identity field to say `words`. */
async function expectIdentityRefused(
  form: Parameters<typeof h.driver.submitView>[1],
  identity: string,
  reason: string,
  words: string,
) {
  const r = await h.driver.submitView(PEOPLE.requester, form, {
    identity,
    bank_code: '058',
    account_number: ACCOUNT,
    reason,
  });
  expect(r.body).toMatchObject({ response_action: 'errors', errors: { identity: expect.stringContaining(words) } });
}

describe('identities that already exist at the service', () => {
  it('finds a typed identity id by asking the service, and shows it masked and checked', async () => {
    const form = await openForm();
    const groups = await suggest(form, existing);
    expect(groups[0]?.label.text).toBe('Checked with the service just now');
    expect(groups[0]?.options).toEqual([
      expect.objectContaining({
        value: existing,
        text: expect.objectContaining({ text: expect.stringMatching(/^Identity idn_.+ · BVN ••••3344 · active$/) }),
        description: expect.objectContaining({ text: 'checked with the service just now' }),
      }),
    ]);
    expect(identityCalls().at(-1)?.query).toEqual({ identity_id: existing });
    // Remembered, masked: only the last four digits of the BVN, and where it came from.
    expect(await h.rampart.deps.registry.identity(existing)).toMatchObject({
      id: existing,
      bvnLast4: '3344',
      source: 'service',
      isActive: true,
      createdBy: PEOPLE.requester,
    });
  });

  it('finds the remembered identity by the BVN’s last digits next time, without asking the service', async () => {
    const form = await openForm();
    const before = identityCalls().length;
    const groups = await suggest(form, '3344');
    expect(groups.map((g) => g.label.text)).toEqual(["Rampart's registry"]);
    expect(groups[0]?.options.map((o) => o.value)).toEqual([existing]);
    expect(identityCalls().length).toBe(before);
  });

  it('shows an inactive identity under a label saying it cannot be chosen, and refuses it on the form', async () => {
    const form = await openForm();
    const groups = await suggest(form, inactive);
    expect(groups[0]?.label.text).toBe('Inactive at the service: cannot be chosen');
    expect(groups[0]?.options[0]?.text.text).toContain('inactive');
    await expectIdentityRefused(form, inactive, 'supplier Tunde', 'inactive, so no beneficiary can be added for it');
    expect(serviceCalls(h, '/beneficiary')).toHaveLength(0);
  });

  it('says an unknown id is not known to the service, and refuses choosing that line', async () => {
    const form = await openForm();
    const groups = await suggest(form, 'idn_0000doesnotexist');
    expect(groups[0]?.label.text).toBe('Not known to the service');
    const line = groups[0]?.options[0];
    expect(line?.text.text).toBe('No identity “idn_0000doesnotexist” at the service');
    await expectIdentityRefused(form, line?.value ?? '', 'supplier', 'choose an identity');
  });

  it('never sends a typed BVN to the service as an id, and says why', async () => {
    const form = await openForm();
    const before = identityCalls().length;
    const groups = await suggest(form, BVN);
    expect(groups[0]?.label.text).toBe('That looks like a BVN');
    expect(identityCalls().length).toBe(before);
  });

  it('answers within Slack’s 3 s when the service is slow, and says the id was not checked', async () => {
    const form = await openForm();
    h.sandbox.faults.latency(2_500);
    try {
      const groups = await suggest(form, 'idn_slow0000000001');
      expect(groups[0]?.label.text).toBe('The service was too slow to check this id');
      expect(groups[0]?.options[0]?.text.text).toBe('Not checked: no answer within 1.5 s');
    } finally {
      h.sandbox.faults.latency(0);
    }
  });

  it('/identity <id> checks the id with the service; an unknown id is explained', async () => {
    await h.driver.command(PEOPLE.approver1, '/identity', existing);
    const shown = await eventually(
      () => h.fake.callsTo('response_url').find((c) => JSON.stringify(c.args).includes(`Identity ${existing}`)),
      5000,
      '/identity answer',
    );
    const text = blocksText(shown.args as { blocks?: unknown[] });
    expect(text).toContain('Checked with the service just now');
    expect(text).toContain('BVN: ••••3344');
    await h.driver.command(PEOPLE.approver1, '/identity', 'idn_0000doesnotexist');
    const unknown = await eventually(
      () => h.fake.callsTo('response_url').find((c) => JSON.stringify(c.args).includes('knows no identity')),
      5000,
      '/identity unknown answer',
    );
    expect(blocksText(unknown.args as { blocks?: unknown[] })).toContain('idn_0000doesnotexist');
  });

  it('creates and approves a beneficiary for the existing identity', async () => {
    const form = await openForm();
    await suggest(form, existing);
    const looked = await h.driver.submitView(PEOPLE.requester, form, {
      identity: existing,
      bank_code: '058',
      account_number: ACCOUNT,
      reason: 'new supplier Ngozi',
    });
    expect(looked.body).toMatchObject({ response_action: 'update', view: { callback_id: 'beneficiary_confirm' } });
    const confirm = await eventually(() =>
      h.fake.views(PEOPLE.requester).find((v) => v.callback_id === 'beneficiary_confirm'),
    );
    const before = h.fake.messages(APPROVALS).length;
    await h.driver.submitView(PEOPLE.requester, confirm, {});
    const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'beneficiary card');
    const id = /R-\d+/.exec(blocksText(card))?.[0] ?? '';
    await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: currentCard(h, id) });
    await waitForState(h, id, 'succeeded');
    expect(serviceCalls(h, '/beneficiary').map((c) => c.body)).toEqual([
      { currency: 'ngn', identity_id: existing, details: { bank_code: '058', account_number: ACCOUNT } },
    ]);
    // The registry entry is written just after the state change.
    const registered = await eventually(async () => {
      const all = await h.rampart.deps.registry.beneficiaries();
      return all.length > 0 ? all : undefined;
    });
    expect(registered).toEqual([
      expect.objectContaining({ identityId: existing, accountMasked: '••••6789', approvedBy: PEOPLE.approver1 }),
    ]);
    expect(ephemeralText(h, PEOPLE.requester)).toContain(id);
  });

  it('never shows a BVN, date of birth or account number in a log line or anything sent to Slack', () => {
    expectNoPersonalData(h, [BVN, INACTIVE_BVN, DOB, '1988-03-14', ACCOUNT], answers);
  });
});
