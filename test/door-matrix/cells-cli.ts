/**
 * The CLI's submission door: `rampart beneficiaries import`, in process, against the caps
 * harness (one open request per person), with beneficiaries seeded in its sandbox as the
 * service's dashboard would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/support.js';
import { envFor, PEOPLE } from '../support/harness.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { cliCode } from './readers.js';
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
