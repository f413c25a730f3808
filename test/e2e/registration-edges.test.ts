/**
 * Registering existing beneficiaries is ONE use case, `submitRegistration()` in
 * app/, called by both edges — the Slack form and `rampart beneficiaries import`. The same row
 * through each edge makes the same sealed call, the same display (the file's name aside), the
 * same quorum and rule, and goes through that one function once per edge.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredView } from '../../devkit/index.js';
import * as registration from '../../src/app/submit-registration.js';
import { cli } from '../cli/support.js';
import { APPROVALS, blocksText, envFor, eventually, PEOPLE } from '../support/harness.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

// A pass-through spy on the one use case: every edge that registers must go through it.
vi.mock('../../src/app/submit-registration.js', async (original) => {
  const m = await original<typeof import('../../src/app/submit-registration.js')>();
  return { ...m, submitRegistration: vi.fn(m.submitRegistration) };
});

const h = useHarness('registration-edges');
let dir = '';
let identityId = '';
let beneficiaryId = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-edges-'));
  identityId = await seedIdentity(h.sandbox, 'Adaeze Okafor', '22266677788', '14-03-1990');
  beneficiaryId = await seedBeneficiary(h.sandbox, identityId, '058', '3344556677');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ROW = () => ({ label: 'Adaeze Okafor · GTBank', bank_name: 'GTBank', account_last4: '6677' });
const REASON = 'supplier paid through the dashboard since May';

async function viaSlack(): Promise<string> {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  await h.driver.command(PEOPLE.requester, '/beneficiary', 'register');
  const form: StoredView = await eventually(
    () => h.fake.views(PEOPLE.requester).find((v) => v.callback_id === 'beneficiary_register' && !seen.has(v.id)),
    3000,
    'register form',
  );
  await h.driver.suggest(PEOPLE.requester, form, 'identity', 'identity', identityId);
  const before = h.fake.messages(APPROVALS).length;
  const ack = await h.driver.submitView(PEOPLE.requester, form, {
    beneficiary_id: beneficiaryId,
    identity: identityId,
    ...ROW(),
    reason: REASON,
  });
  expect(ack.body, JSON.stringify(ack.body)).toMatchObject({ response_action: 'update' });
  const card = await eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'Slack card');
  return /R-\d+/.exec(blocksText(card))?.[0] ?? '';
}

async function viaCli(): Promise<string> {
  const path = join(dir, 'one.csv');
  const r = ROW();
  await writeFile(
    path,
    `beneficiary_id,identity_id,label,bank_name,account_last4\n${beneficiaryId},${identityId},${r.label},${r.bank_name},${r.account_last4}\n`,
    'utf8',
  );
  const env = envFor(h.prefix, h.sandbox, h.fake);
  const out = await cli(['beneficiaries', 'import', path, '--requester', PEOPLE.requester, '--reason', REASON], env);
  expect(out.code, out.stderr).toBe(0);
  return /^R-\d+/.exec(out.stdout)?.[0] ?? '';
}

describe('registering existing beneficiaries from either edge', () => {
  it('is one use case: the Slack form and the CLI call submitRegistration and seal the same request', async () => {
    const spy = vi.mocked(registration.submitRegistration);
    spy.mockClear();
    const fromSlack = await viaSlack();
    const fromCli = await viaCli();
    expect(fromSlack).toMatch(/^R-\d+$/);
    expect(fromCli).toMatch(/^R-\d+$/);
    expect(fromCli).not.toBe(fromSlack);

    // Each edge went through the one use case once, with the same row.
    expect(spy).toHaveBeenCalledTimes(2);
    const [slackInput, cliInput] = spy.mock.calls.map(([, input]) => input);
    expect(slackInput?.rows.map((r) => r.input)).toEqual(cliInput?.rows.map((r) => r.input));
    // Each door names who acts: the Slack user, or the CLI operator as --requester.
    expect(slackInput?.actor).toEqual({ via: 'slack', user: PEOPLE.requester });
    expect(cliInput?.actor).toEqual({ via: 'cli', user: PEOPLE.requester });

    const [slack, file] = await Promise.all([h.rampart.deps.store.get(fromSlack), h.rampart.deps.store.get(fromCli)]);
    if (!slack || !file) throw new Error('both requests are stored');
    expect(file.sealed.call).toEqual(slack.sealed.call);
    expect(file.sealed.hash).toBe(slack.sealed.hash);
    const { importFile, ...display } = file.sealed.display as typeof file.sealed.display & { importFile?: string };
    expect(importFile).toBe('one.csv');
    expect(display).toEqual(slack.sealed.display);
    expect([file.sealed.requiredApprovals, file.sealed.rule]).toEqual([
      slack.sealed.requiredApprovals,
      slack.sealed.rule,
    ]);
    expect([file.state, slack.state]).toEqual(['pending', 'pending']);
  });
});
