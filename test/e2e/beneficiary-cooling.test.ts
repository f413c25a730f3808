/**
 * New beneficiaries cool off as address-book entries do (docs/destinations.md), end to end with
 * DESTINATIONS=warn on the real Bolt receiver, the real worker and the sandbox service: a
 * beneficiary registered through `rampart beneficiaries import` and approved is usable only
 * ADDRESS_COOLDOWN later, by Redis's clock. A batch row to it is refused at submission with the
 * time it becomes usable; a single offramp to it, approved meanwhile, waits and then runs once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/support.js';
import { submitBatchFile } from '../support/batches.js';
import { APPROVALS, blocksText, envFor, eventually, PEOPLE } from '../support/harness.js';
import { click, currentCard, quiescent, serviceCalls, waitForState } from '../support/requests.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

const COOLDOWN_S = 6;
const SETTINGS = { DESTINATIONS: 'warn', ADDRESS_COOLDOWN: `${COOLDOWN_S}s` };
const h = useHarness('beneficiary-cooling', SETTINGS);
let dir = '';
let env: Record<string, string>;
let beneficiaryId = '';

beforeAll(async () => {
  env = envFor(h.prefix, h.sandbox, h.fake, SETTINGS);
  dir = await mkdtemp(join(tmpdir(), 'rampart-ben-cooling-'));
  const identity = await seedIdentity(h.sandbox, 'Chidi Eze', '22233344455', '02-03-1985');
  beneficiaryId = await seedBeneficiary(h.sandbox, identity, '058', '4455667788');
  const path = join(dir, 'new.csv');
  await writeFile(
    path,
    `beneficiary_id,identity_id,label,bank_name,account_last4\n${beneficiaryId},${identity},Chidi GTB,Guaranty Trust Bank,7788\n`,
    'utf8',
  );
  const r = await cli(
    ['beneficiaries', 'import', path, '--requester', PEOPLE.requester, '--reason', 'new supplier'],
    env,
  );
  expect(r.code).toBe(0);
  const id = /^R-\d+/.exec(r.stdout)?.[0] ?? '';
  await eventually(() => h.fake.messages(APPROVALS).find((m) => blocksText(m).includes(id)), 10_000, 'the card');
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForState(h, id, 'succeeded');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function offramp(note: string): Promise<string> {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/offramp', `300 base:usdc from ops for ${note}`);
  const view = await eventually(
    () => h.fake.views(PEOPLE.requester).find((v) => v.callback_id === 'offramp_modal' && !seen.has(v.id)),
    10_000,
    'the offramp form',
  );
  await h.driver.suggest(PEOPLE.requester, view, 'beneficiary', 'beneficiary', beneficiaryId);
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.submitView(PEOPLE.requester, view, { beneficiary: beneficiaryId });
  expect(ack.body, JSON.stringify(ack.body)).toMatchObject({
    response_action: expect.stringMatching(/^(update|clear)$/),
  });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'the offramp card');
  return /R-\d+/.exec(blocksText(card))?.[0] ?? '';
}

describe('a new beneficiary cools off (DESTINATIONS=warn)', () => {
  it('refuses a batch row to it at submission, with the time it becomes usable', async () => {
    const cooling = await h.rampart.deps.registry.beneficiaryCooling(beneficiaryId);
    expect(cooling?.usableAt).toBe((cooling?.approvedAt ?? 0) + COOLDOWN_S * 1000);
    await expect(
      submitBatchFile(h, 'beneficiary,amount\nChidi GTB,10\n', PEOPLE.requester, 'b.csv', 'offramps'),
    ).rejects.toThrow('Row 2 beneficiary: Chidi GTB is a new beneficiary that is still cooling off and becomes usable');
  });

  it('makes an approved offramp to it wait until the cooling-off ends, then run once', async () => {
    const cooling = await h.rampart.deps.registry.beneficiaryCooling(beneficiaryId);
    const id = await offramp('first invoice');
    expect(blocksText(currentCard(h, id))).toContain('new beneficiary: *Chidi GTB*');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await eventually(
      () => (blocksText(currentCard(h, id)).includes('Waiting: *Chidi GTB* usable from') ? true : undefined),
      10_000,
      'the waiting card',
    );
    await waitForState(h, id, 'succeeded', (COOLDOWN_S + 10) * 1000);
    await quiescent(h);
    expect(serviceCalls(h, '/offramp')).toHaveLength(1);
    const started = (await h.rampart.deps.store.history(id)).find((e) => e.event === 'executing')?.at ?? 0;
    // Started by the worker only once Redis's clock passed usableAt (the app clock is the same host's).
    expect(started).toBeGreaterThanOrEqual((cooling?.usableAt ?? Number.POSITIVE_INFINITY) - 5);
  });
});
