/**
 * `npm run dev`: Rampart on this machine with no Slack workspace and no wallet service. Starts
 * the workbench (fake Slack + Rampart + the in-process sandbox) and prints the one URL to open.
 * An entry point like main.ts: the environment reaches Rampart only through loadConfig.
 */

import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/errors.js';
import { createLogger, type Logger } from '../src/log.js';
import { type DevRedis, RedisUnavailableError, redisForDev } from './private-redis.js';
import { startWorkbench, type Workbench, WorkbenchRefusedError } from './workbench/index.js';

/** The configured Redis, or a private one when nothing answers there. */
async function devRedis(): Promise<DevRedis | undefined> {
  let redis: ReturnType<typeof loadConfig>['redis'];
  try {
    redis = loadConfig(process.env, { development: true }).redis;
  } catch {
    return undefined; // startWorkbench reports the configuration's problems.
  }
  if (redis.clusterNodes || process.env.NODE_ENV === 'production') return undefined;
  return redisForDev(redis.url, process.env.PATH ?? '');
}

async function dev(): Promise<void> {
  let workbench: Workbench;
  let log: Logger | undefined;
  let redis: DevRedis | undefined;
  try {
    redis = await devRedis();
    if (redis?.note) process.stdout.write(`${redis.note}\n`);
    process.on('exit', () => redis?.kill());
    workbench = await startWorkbench({
      env: redis ? { ...process.env, REDIS_URL: redis.url } : process.env,
      logger: (config) => {
        log = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
        return log;
      },
    });
  } catch (err) {
    await redis?.stop();
    if (err instanceof WorkbenchRefusedError || err instanceof RedisUnavailableError)
      process.stderr.write(`${err.message}\n`);
    else if (err instanceof ConfigError) process.stderr.write(`${err.message}\nSee docs/configuration.md.\n`);
    else {
      const message = err instanceof Error ? err.message : String(err);
      const refused = (err as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
      const hint = refused ? '\nIs Redis running? Rampart needs it (REDIS_URL, default redis://127.0.0.1:6379).' : '';
      process.stderr.write(`The workbench could not start: ${message}${hint}\n`);
    }
    process.exit(1);
  }
  const service = workbench.config.service.baseUrl
    ? 'the wallet service at SERVICE_BASE_URL (real calls!)'
    : 'the built-in sandbox (no real money)';
  // The HTTP API of the same Rampart, for docs/http-api.md's walkthrough.
  const redisUrl = redis?.url ?? workbench.config.redis.url;
  const prefix = workbench.config.redis.prefix;
  const { publicUrl } = workbench.config.stepUp;
  // With step-up on, the first passkey comes from the server, as in production.
  const passkeys = publicUrl
    ? `Passkey step-up is on; its pages are at ${publicUrl}/. An approver's first passkey: ` +
      `PUBLIC_URL=${publicUrl} REDIS_URL=${redisUrl} REDIS_PREFIX=${prefix} node bin/rampart.js passkeys enrol-link --user U0APPROVER1\n`
    : '';
  const banner =
    `\nRampart workbench: ${workbench.url}\n` +
    `Slack is played by the workbench; Rampart talks to ${service}. Ctrl-C stops it.\n` +
    `HTTP API: http://127.0.0.1:${workbench.rampart.port}/api/v1 (keys: REDIS_URL=${redisUrl} REDIS_PREFIX=${prefix} node bin/rampart.js api-keys create …)\n` +
    `${passkeys}\n`;
  // After the start-up log lines, so the URL to open is the last thing on the screen.
  if (log) log.flush(() => process.stdout.write(banner));
  else process.stdout.write(banner);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    workbench
      .close()
      .then(() => redis?.stop())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void dev();
