/**
 * A cross-border beneficiary through Slack: the card in the approvals channel
 * says the holder name is as typed by the requester, shows country, SWIFT/BIC and sort code and
 * the IBAN masked in the middle — never "verified", never the whole IBAN.
 */

import { beforeAll, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import { LONDON_BRANCH, openCrossBorderForm } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const IBAN = 'GB33BUKB20201555555555';
const h = useHarness('cross-border-card');
beforeAll(async () => {
  await h.rampart.deps.registry.addIdentity({
    id: 'idn_xb_1',
    name: 'Adaeze Okafor',
    type: 'BVN',
    bvnLast4: '4455',
    createdBy: PEOPLE.approver1,
    createdAt: Date.now(),
  });
});

it('posts a card that says who typed the holder name and shows a checkable, masked destination', async () => {
  const xb = await openCrossBorderForm(h, PEOPLE.requester);
  const res = await h.driver.submitView(PEOPLE.requester, xb, {
    identity: 'idn_xb_1',
    bank_name: 'Barclays',
    account_name: 'Adaeze Okafor',
    iban: IBAN,
    swift_code: 'BUKBGB22',
    sort_code: '202015',
    ...LONDON_BRANCH,
    reason: 'UK supplier',
  });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ response_action: 'update' });
  const card = blocksText(await eventually(() => h.fake.messages(APPROVALS)[0], 10_000, 'beneficiary card'));
  expect(card).toContain(`*Holder:* Adaeze Okafor _(typed by <@${PEOPLE.requester}>, not verified)_`);
  expect(card).not.toMatch(/verified by (the )?bank lookup/);
  expect(card).toContain('*Country:* GB');
  expect(card).toContain('*SWIFT/BIC:* `BUKBGB22`');
  expect(card).toContain('*IBAN:* `GB33••••5555`');
  expect(card).not.toContain(IBAN);
});
