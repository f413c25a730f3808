/**
 * The registration doors — `/beneficiary register` and the CLI's `rampart beneficiaries import`
 * (in process) — against the caps harness (one open request per person), with beneficiaries
 * seeded in its sandbox as the service's dashboard would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/support.js';
import { envFor, eventually, PEOPLE } from '../support/harness.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { cliCode, modalCode } from './readers.js';
import { CAPS_ENV, type World } from './world.js';

const HEADER = 'beneficiary_id,identity_id,label,bank_name,account_last4';

/** Two imports by one person: the first is pending, so the second is over the person's cap. */
export async function importTwice(w: World): Promise<string> {
  const h = w.caps;
  const identity = await seedIdentity(h.sandbox, 'Matrix Supplies Ltd', '22244455566', '21-11-1979');
  const first = await seedBeneficiary(h.sandbox, identity, '058', '0123456789');
  const second = await seedBeneficiary(h.sandbox, identity, '044', '1234567890');
  const dir = await mkdtemp(join(tmpdir(), 'rampart-matrix-'));
  try {
    // The CLI reads its own settings, as on a server: the same cap as the Slack side's.
    const env = envFor(h.prefix, h.sandbox, h.fake, CAPS_ENV);
    const run = async (name: string, row: string) => {
      const path = join(dir, name);
      await writeFile(path, `${HEADER}\n${row}\n`, 'utf8');
      const as = ['--requester', PEOPLE.outsider, '--reason', `matrix ${name}`];
      return cliCode(await cli(['beneficiaries', 'import', path, ...as], env));
    };
    const opened = await run('first.csv', `${first},${identity},GTBank,Guaranty Trust Bank,6789`);
    if (opened !== 'accepted') return `the first import was refused: ${opened}`;
    return await run('second.csv', `${second},${identity},Access,Access Bank,7890`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Two `/beneficiary register` forms by one person: the second is over the person's cap. */
export async function registerTwice(w: World): Promise<string> {
  const h = w.caps;
  const user = PEOPLE.requester;
  const identity = await seedIdentity(h.sandbox, 'Matrix Traders Ltd', '22244455577', '02-03-1981');
  const register = async (beneficiary: string, bank: string, last4: string) => {
    const seen = new Set(h.fake.views(user).map((v) => v.id));
    await h.driver.command(user, '/beneficiary', 'register');
    const form = await eventually(
      () => h.fake.views(user).find((v) => v.callback_id === 'beneficiary_register' && !seen.has(v.id)),
      10_000,
      'the register form',
    );
    await h.driver.suggest(user, form, 'identity', 'identity', identity);
    const values = { beneficiary_id: beneficiary, identity, label: `matrix ${last4}`, bank_name: bank };
    const r = await h.driver.submitView(user, form, { ...values, account_last4: last4, reason: 'matrix register' });
    const code = modalCode(r.body);
    if (code !== 'accepted') h.fake.closeView(user, form.id);
    return code;
  };
  const first = await seedBeneficiary(h.sandbox, identity, '057', '2233445566');
  const second = await seedBeneficiary(h.sandbox, identity, '058', '3344556677');
  const opened = await register(first, 'Zenith Bank', '5566');
  if (opened !== 'accepted') return `the first registration was refused: ${opened}`;
  return register(second, 'Guaranty Trust Bank', '6677');
}
