/**
 * Personal data is not kept longer than needed: once a beneficiary, a
 * cross-border beneficiary and an offramp request end, nothing under Rampart's Redis prefix holds
 * a full account number, IBAN, BVN or date of birth — yet the card, the CLI's view of the
 * request and its hash still read.
 */
import { expect, it } from 'vitest';
import type { StoredView } from '../../devkit/index.js';
import { approvalHashOf, cardHash } from '../../src/domain/approval.js';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import { click, currentCard, LONDON_BRANCH, quiescent, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const BVN = '22233344455';
const DOB = ['01-02-1990', '1990-02-01'];
const NUBAN = '0123456789';
const IBAN = 'GB33BUKB20201555555555';

const h = useHarness('retention');

const newView = (user: string, callbackId: string, seen: Set<string> = new Set()) =>
  eventually(() => h.fake.views(user).find((v) => v.callback_id === callbackId && !seen.has(v.id)), 5000, callbackId);
const cardId = (card: { blocks?: unknown[]; text?: string }) => /R-\d+/.exec(blocksText(card))?.[0] ?? '';

/** Every value stored under the prefix, whatever its type. */
async function everythingStored(): Promise<string> {
  const redis = h.rampart.redis;
  const keys = await redis.keys(`${h.prefix}:*`);
  const parts: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'string') parts.push((await redis.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    else parts.push(`${key}: ${type}`);
  }
  return parts.join('\n');
}

async function submitCard(user: string, view: StoredView, values: Record<string, string>) {
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.submitView(user, view, values);
  expect(ack.body, JSON.stringify(ack.body)).toMatchObject({ response_action: 'update' });
  return eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'card');
}

it('after beneficiary, cross-border and offramp requests end, Redis holds no full account number, IBAN, BVN or date of birth', async () => {
  // An identity (BVN and date of birth go to the service, never into Redis whole).
  await h.driver.command(PEOPLE.approver1, '/identity', 'new');
  const identityForm = await newView(PEOPLE.approver1, 'identity_modal');
  await h.driver.submitView(PEOPLE.approver1, identityForm, { name: 'Adaeze Okafor', bvn: BVN, dob: DOB[1] ?? '' });
  const identityId = (await eventually(async () => (await h.rampart.deps.registry.identities())[0])).id;

  // A Nigerian beneficiary: looked up, confirmed, approved, created.
  await h.driver.command(PEOPLE.requester, '/beneficiary', 'new');
  const ng = await newView(PEOPLE.requester, 'beneficiary_ng');
  const looked = await h.driver.submitView(PEOPLE.requester, ng, {
    identity: identityId,
    bank_code: '058',
    account_number: NUBAN,
    reason: 'new supplier',
  });
  expect(looked.body).toMatchObject({ response_action: 'update' });
  const confirm = await newView(PEOPLE.requester, 'beneficiary_confirm');
  const ngCard = await submitCard(PEOPLE.requester, confirm, {});
  const ngId = cardId(ngCard);
  // The requester's own form still holds the number until it is submitted; afterwards it is gone.
  await click(h, PEOPLE.approver1, ngId, 'request_approve');
  await waitForState(h, ngId, 'succeeded');
  const beneficiaryId = (await eventually(async () => (await h.rampart.deps.registry.beneficiaries())[0])).id;

  // A cross-border beneficiary with an IBAN, cancelled by its requester.
  await h.driver.command(PEOPLE.requester, '/beneficiary', 'new');
  const ng2 = await newView(PEOPLE.requester, 'beneficiary_ng', new Set([ng.id]));
  await h.driver.click(PEOPLE.requester, { action_id: 'beneficiary_switch', view: ng2 });
  const xb = await newView(PEOPLE.requester, 'beneficiary_xb');
  const xbCard = await submitCard(PEOPLE.requester, xb, {
    identity: identityId,
    bank_name: 'Barclays',
    account_name: 'Adaeze Okafor',
    iban: IBAN,
    swift_code: 'BUKBGB22',
    ...LONDON_BRANCH,
    reason: 'UK supplier',
  });
  const xbId = cardId(xbCard);
  expect(JSON.stringify((await h.rampart.deps.store.get(xbId))?.sealed)).toContain(IBAN); // kept while pending
  await click(h, PEOPLE.requester, xbId, 'request_cancel');
  await waitForState(h, xbId, 'cancelled');

  // An offramp to the new beneficiary.
  await h.driver.command(PEOPLE.requester, '/offramp', '50 base:usdc from ops for supplier payout');
  const offramp = await newView(PEOPLE.requester, 'offramp_modal');
  const before = h.fake.messages(APPROVALS).length;
  const submitted = await h.driver.submitView(PEOPLE.requester, offramp, { beneficiary: beneficiaryId });
  expect(submitted.body, JSON.stringify(submitted.body)).toMatchObject({ response_action: 'clear' });
  const offrampId = cardId(await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'offramp card'));
  await click(h, PEOPLE.approver1, offrampId, 'request_approve');
  await waitForState(h, offrampId, 'succeeded');
  await quiescent(h);

  const stored = await everythingStored();
  for (const secret of [NUBAN, IBAN, BVN, ...DOB]) expect(stored, secret).not.toContain(secret);

  // What stays still reads: masked details, the short hash, the full hash of the original call.
  const ngRecord = await h.rampart.deps.store.get(ngId);
  expect(ngRecord?.sealed.redacted?.callSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(ngRecord?.sealed.call).toMatchObject({ body: { details: { account_number: '••••6789' } } });
  // The card's short hash is the approvalHash's, over the sealHash of the original call.
  expect(ngRecord?.sealed.hash).toBe(
    cardHash(
      approvalHashOf([
        {
          kind: 'beneficiary',
          body: { currency: 'ngn', identity_id: identityId, details: { bank_code: '058', account_number: NUBAN } },
        },
      ]),
    ),
  );
  expect(blocksText(currentCard(h, ngId))).toContain('••••6789');
  expect(blocksText(currentCard(h, xbId))).toContain('Cancelled');
});
