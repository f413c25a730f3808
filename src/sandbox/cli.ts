/**
 * `npm run sandbox`: the sandbox on SANDBOX_PORT (default 4010) with the seeded world, until
 * SIGINT/SIGTERM. Prints what a developer needs to point Rampart or curl at it.
 */
import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../config.js';
import { isRampartError } from '../errors.js';
import { createLogger } from '../log.js';
import { SEED_ACCOUNTS, SEED_WALLETS } from './seed.js';
import { startSandbox } from './server.js';

function configOrExit(): Config {
  try {
    return loadConfig(process.env, { receivesSlack: false });
  } catch (err) {
    process.stderr.write(`${isRampartError(err) ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

const config = configOrExit();
if (config.env === 'production') {
  process.stderr.write('The sandbox does not run with NODE_ENV=production; it is for development and tests.\n');
  process.exit(1);
}

// config defaults SERVICE_API_KEY to the development key, so `npm run dev` finds the sandbox as is.
const apiKey = config.service.apiKey;
const bearerToken = config.service.bearerToken ?? `sandbox_${randomBytes(16).toString('hex')}`;
const log = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY });
const sandbox = await startSandbox({
  port: config.sandboxPort,
  apiKey,
  bearerToken,
  params: config.service.params,
  log,
});

const lines = [
  `sandbox ${sandbox.url}`,
  `x-service-key ${apiKey}`,
  `bearer ${bearerToken}${config.service.bearerToken === undefined ? ' (generated; set SERVICE_BEARER_TOKEN to fix it)' : ''}`,
  ...SEED_WALLETS.map((w) => `wallet ${w.alias} ${w.id}`),
  ...SEED_ACCOUNTS.map((a) => `account ${a.bankCode} ${a.accountNumber} ${a.accountName}`),
];
process.stdout.write(`${lines.join('\n')}\n`);

async function shutdown(signal: string): Promise<void> {
  log.info({ signal }, 'sandbox stopping');
  await sandbox.close();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    shutdown(signal).catch((err: unknown) => {
      log.error({ err }, 'sandbox did not close cleanly');
      process.exit(1);
    });
  });
}
