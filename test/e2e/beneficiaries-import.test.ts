/**
 * `rampart beneficiaries import FILE.csv` against the sandbox seeded through
 * its own HTTP interface and a running Rampart (its workers post the card): a good file makes ONE
 * card and one approval registers every row; a bad file changes nothing and names every bad
 * line; a denial registers nothing. No BVN, date of birth or account number anywhere.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, lines } from '../cli/support.js';
import { APPROVALS, blocksText, envFor, eventually, expectNoPersonalData, PEOPLE } from '../support/harness.js';
import { click, openDeny, quiescent, serviceCalls, threadOf, waitForState } from '../support/requests.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

const BVN = '22244455566';
const DOB = '21-11-1979';
const ACCOUNTS = ['0123456789', '1234567890', '2233445566'];

const h = useHarness('beneficiaries-import');
let dir = '';
let identityId = '';
let bens: string[] = [];
let env: Record<string, string>;
const outputs: string[] = [];

beforeAll(async () => {
  env = envFor(h.prefix, h.sandbox, h.fake);
  dir = await mkdtemp(join(tmpdir(), 'rampart-import-'));
  identityId = await seedIdentity(h.sandbox, 'Lagos Logistics Ltd', BVN, DOB);
  bens = [];
  for (const [i, account] of ACCOUNTS.entries())
    bens.push(await seedBeneficiary(h.sandbox, identityId, ['058', '044', '057'][i] ?? '058', account));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, 'utf8');
  return path;
}

async function importFile(path: string, reason = 'day one: suppliers paid through the dashboard') {
  const r = await cli(['beneficiaries', 'import', path, '--requester', PEOPLE.requester, '--reason', reason], env);
  outputs.push(r.stdout, r.stderr);
  return r;
}

const newCard = async (before: number) => eventually(() => h.fake.messages(APPROVALS)[before], 10_000, 'import card');

describe('rampart beneficiaries import', () => {
  it('documents its columns in --help', async () => {
    const r = await cli(['beneficiaries', 'import', '--help'], env);
    expect(r.code).toBe(0);
    for (const column of ['beneficiary_id', 'identity_id', 'label', 'bank_name', 'account_last4'])
      expect(r.stdout).toContain(column);
    expect(r.stdout).toContain('UTF-8');
  });

  it('refuses a bad file, names every bad line, and changes nothing', async () => {
    const cardsBefore = h.fake.messages(APPROVALS).length;
    const first = await importFile(
      await file(
        'seed.csv',
        `beneficiary_id,identity_id,label,bank_name,account_last4\n${bens[2]},${identityId},Zenith payee,Zenith Bank,5566\n`,
      ),
    );
    const seeded = /^R-\d+/.exec(first.stdout)?.[0] ?? '';
    await newCard(cardsBefore);
    await click(h, PEOPLE.approver1, seeded, 'request_approve');
    await waitForState(h, seeded, 'succeeded');
    const before = {
      requests: await h.rampart.deps.store.recentIds(),
      beneficiaries: await h.rampart.deps.registry.beneficiaries(),
      identities: await h.rampart.deps.registry.identities(),
      cards: h.fake.messages(APPROVALS).length,
    };
    const path = await file(
      'bad.csv',
      [
        'beneficiary_id,identity_id,label,bank_name,account_last4',
        `${bens[0]},${identityId},GTBank payee,Guaranty Trust Bank,6789`, // line 2: good
        `${bens[1]},idn_0000nosuchone1,Access payee,Access Bank,7890`, // 3: unknown identity
        `ben_short,${identityId},Missing digits,Access Bank`, // 4: missing column
        `${bens[0]},${identityId},GTBank again,Guaranty Trust Bank,6789`, // 5: duplicate of line 2
        `ben_bvnlabel,${identityId},Lagos ${BVN},Zenith Bank,5566`, // 6: BVN where a label belongs
        `${bens[2]},${identityId},Zenith payee,Zenith Bank,5566`, // 7: already registered
      ].join('\n'),
    );
    const r = await importFile(path);
    expect(r.code).toBe(1);
    const said = lines(r.stderr);
    expect(said.filter((l) => l.startsWith('line ')).map((l) => l.split(':')[0])).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
    ]);
    expect(r.stderr).toContain('line 3: identity_id: The service knows no identity with this id');
    expect(r.stderr).toContain('line 4: Line 4 has 4 values but the header has 5: missing account_last4.');
    expect(r.stderr).toContain('(also on line 2)');
    expect(r.stderr).toContain('line 6: label: The label holds an 11-digit number, which looks like a BVN');
    expect(r.stderr).toContain(`line 7: beneficiary_id: Beneficiary id ${bens[2]} is already in Rampart's registry`);
    expect(said.at(-1)).toBe(
      `rampart: 5 problems in ${path}; nothing was imported or sent for approval. Fix every line above and run the command again.`,
    );
    await quiescent(h);
    expect(await h.rampart.deps.store.recentIds()).toEqual(before.requests);
    expect(await h.rampart.deps.registry.beneficiaries()).toEqual(before.beneficiaries);
    expect(await h.rampart.deps.registry.identities()).toEqual(before.identities);
    expect(h.fake.messages(APPROVALS)).toHaveLength(before.cards);
  });

  it('names a missing header column on line 1', async () => {
    const r = await importFile(
      await file('header.csv', `beneficiary_id,identity_id,label,bank\n${bens[0]},${identityId},x,y\n`),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 1: The header has no column bank_name.');
    expect(r.stderr).toContain('line 1: The header has no column account_last4.');
  });

  it('turns a good file into one card; one approval registers every row, without calling the service', async () => {
    const path = await file(
      'good.csv',
      // A BOM, CRLF, columns in another order, and a quoted label holding a comma.
      `\uFEFFlabel,beneficiary_id,identity_id,bank_name,account_last4\r\n"GTBank, Ikeja office",${bens[0]},${identityId},Guaranty Trust Bank,6789\r\nAccess payee,${bens[1]},${identityId},Access Bank,7890\r\n`,
    );
    const cards = h.fake.messages(APPROVALS).length;
    const r = await importFile(path);
    expect(r.code, r.stderr).toBe(0);
    const id = /^R-\d+/.exec(r.stdout)?.[0] ?? '';
    expect(r.stdout).toContain('2 beneficiaries from good.csv, as stated by U0REQUESTER');
    const card = await newCard(cards);
    const text = blocksText(card);
    expect(text).toContain(`Existing beneficiaries ${id}`);
    expect(text).toContain('*Registers 2 beneficiaries that already exist at the service*');
    expect(text).toContain('from `good.csv`');
    expect(text).toContain('GTBank, Ikeja office · Guaranty Trust Bank ••••6789');
    expect(text).toContain('Access payee · Access Bank ••••7890');
    expect(text).toContain('*As stated by <@U0REQUESTER>, not checked:*');
    expect(await h.rampart.deps.registry.beneficiary(bens[0] ?? '')).toBeUndefined();

    const again = await importFile(path);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('was already sent for approval');

    await click(h, PEOPLE.requester, id, 'request_approve'); // their own: refused
    await click(h, PEOPLE.approver2, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    const registered = await h.rampart.deps.registry.beneficiaries();
    expect(registered.filter((b) => b.requestId === id).map((b) => [b.id, b.label, b.accountMasked])).toEqual([
      [bens[1], 'Access payee', '••••7890'],
      [bens[0], 'GTBank, Ikeja office', '••••6789'],
    ]);
    expect(registered.every((b) => b.asStated && b.approvedBy !== PEOPLE.requester)).toBe(true);
    expect(serviceCalls(h, '/beneficiary')).toHaveLength(3); // the seeding calls only
    await eventually(() => threadOf(h, id).find((m) => m.text.includes('2 beneficiaries registered as stated')));
    const shown = await cli(['requests', 'show', id], env);
    expect(shown.stdout).toMatch(new RegExp(`${bens[0]}.*idn_.*GTBank, Ikeja office.*Guaranty Trust Bank.*••••6789`));
    expect(shown.stdout).toMatch(new RegExp(`${bens[1]}.*Access payee.*••••7890`));
  });

  it('a denied import registers nothing', async () => {
    const extra = await seedBeneficiary(h.sandbox, identityId, '058', '0123456789');
    const path = await file(
      'denied.csv',
      `beneficiary_id,identity_id,label,bank_name,account_last4\n${extra},${identityId},Second GTBank,Guaranty Trust Bank,6789\n`,
    );
    const cards = h.fake.messages(APPROVALS).length;
    const r = await importFile(path);
    expect(r.code, r.stderr).toBe(0);
    const id = /^R-\d+/.exec(r.stdout)?.[0] ?? '';
    await newCard(cards);
    const modal = await openDeny(h, PEOPLE.approver1, id);
    await h.driver.submitView(PEOPLE.approver1, modal, { reason: 'not our supplier' });
    await waitForState(h, id, 'denied');
    await quiescent(h);
    expect(await h.rampart.deps.registry.beneficiary(extra)).toBeUndefined();
  });

  it('never shows a BVN, date of birth or account number in a log line, a card or the CLI’s output', () => {
    expectNoPersonalData(h, [BVN, DOB, '1979-11-21', ...ACCOUNTS], outputs);
  });
});
