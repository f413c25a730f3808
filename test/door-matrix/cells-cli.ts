/**
 * The registration doors — `/beneficiary register` and the CLI's `rampart beneficiaries import`
 * (in process) — against the caps harness (one open request per person; every new destination
 * needs passkeys), with beneficiaries seeded in its sandbox as the service's dashboard would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/support.js';
import { envFor, type Harness, PEOPLE } from '../support/harness.js';
import { newView } from '../support/requests.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { cliCode, modalCode } from './readers.js';
import { CAPS_ENV, cards, clickCard, newestCardId, type World } from './world.js';

const HEADER = 'beneficiary_id,identity_id,label,bank_name,account_last4';
let bvn = 22244455500;
let account = 2233445500;

/** A beneficiary at the service Rampart has not registered, as a registration states it. */
async function seeded(h: Harness) {
  const identity = await seedIdentity(h.sandbox, 'Matrix Supplies Ltd', String(++bvn), '21-11-1979');
  const number = String(++account).padStart(10, '0');
  const id = await seedBeneficiary(h.sandbox, identity, '057', number);
  return { id, identity, bank: 'Zenith Bank', last4: number.slice(-4) };
}

async function register(h: Harness, user: string): Promise<string> {
  const b = await seeded(h);
  const seen = new Set(h.fake.views(user).map((v) => v.id));
  await h.driver.command(user, '/beneficiary', 'register');
  const form = await newView(h, user, 'beneficiary_register', seen, 10_000);
  await h.driver.suggest(user, form, 'identity', 'identity', b.identity);
  const r = await h.driver.submitView(user, form, {
    beneficiary_id: b.id,
    identity: b.identity,
    label: `matrix ${b.last4}`,
    bank_name: b.bank,
    account_last4: b.last4,
    reason: 'matrix register',
  });
  const code = modalCode(r.body);
  if (code !== 'accepted') h.fake.closeView(user, form.id);
  return code;
}

async function importFile(h: Harness, user: string): Promise<string> {
  const b = await seeded(h);
  const dir = await mkdtemp(join(tmpdir(), 'rampart-matrix-'));
  try {
    const path = join(dir, 'suppliers.csv');
    await writeFile(path, `${HEADER}\n${b.id},${b.identity},matrix,${b.bank},${b.last4}\n`, 'utf8');
    // The CLI reads its own settings, as on a server: the same as the Slack side's.
    const env = envFor(h.prefix, h.sandbox, h.fake, CAPS_ENV);
    return cliCode(await cli(['beneficiaries', 'import', path, '--requester', user, '--reason', 'matrix'], env));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Two submissions by one person: the first is pending, so the second is over the person's cap. */
const twice = (submit: (h: Harness, user: string) => Promise<string>, user: string) => async (w: World) => {
  const opened = await submit(w.caps, user);
  if (opened !== 'accepted') return `the first was refused: ${opened}`;
  return submit(w.caps, user);
};
export const registerTwice = twice(register, PEOPLE.requester);
export const importTwice = twice(importFile, PEOPLE.outsider);

/** A registration adds a destination: its first Slack Approve is answered with the passkey offer. */
const approvedFromSlack = (submit: (h: Harness, user: string) => Promise<string>) => async (w: World) => {
  const h = w.caps;
  const before = cards(h);
  const submitted = await submit(h, PEOPLE.groupMember);
  if (submitted !== 'accepted') return `not submitted: ${submitted}`;
  const id = await newestCardId(h, before);
  const code = await clickCard(h, PEOPLE.approver1, id, 'request_approve');
  // Its place under the cap is given back for the open-cap rows.
  await h.rampart.deps.store.decide(id, 'denied', { event: 'denied', by: PEOPLE.approver2 });
  return code;
};
export const registerStepUp = approvedFromSlack(register);
export const importStepUp = approvedFromSlack(importFile);
