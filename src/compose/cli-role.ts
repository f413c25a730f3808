/**
 * The CLI's part of the composition root: what one `rampart` command may open — Redis (for the
 * app), the service, the queues, Slack — each on first use and closed by close(). Without
 * SERVICE_BASE_URL (never in production, see config) the in-process sandbox stands in, as in
 * src/rampart.ts. The commands (cli/) receive the app built here and never open a store.
 */
import { LogLevel, WebClient } from '@slack/web-api';
import type { CliRole } from '../adapters/cli/context.js';
import type { CliIo } from '../adapters/cli/io.js';
import { CliError } from '../adapters/cli/problems.js';
import { createQueues, type Queues } from '../adapters/jobs/queues.js';
import { slackClientOptions } from '../adapters/slack/web-api/client-options.js';
import { slackProbe } from '../adapters/slack/web-api/doctor-probe.js';
import { slackPasskeyNotices } from '../adapters/slack/web-api/passkey-notices.js';
import { noteOnSandbox } from '../adapters/slack/web-api/sandbox-note.js';
import { type Check, doctor } from '../app/doctor.js';
import type { RampartApp } from '../app/index.js';
import { serviceReads } from '../app/reads/service-reads.js';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import { type Config, DEV_DEFAULTS } from '../config.js';
import { connectService } from '../connect-service.js';
import { createLogger } from '../log.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ServiceClient } from '../service/client.js';
import { closeRedis, openRedis, type RedisClient } from '../store/redis.js';
import { RedisUnavailableError } from '../store/redis-errors.js';
import { cliApp } from './cli-app.js';
import { type OpenedProbe, openRedisProbe } from './cli-redis-probe.js';

/**
 * Builds the owner's passkey messages (and cards) through Slack; undefined when no bot
 * token is configured (the development default is not a workspace). Failures come back, not thrown.
 */
function passkeyNotices(config: Config): (() => PasskeyNotices) | undefined {
  if (config.slack.botToken === DEV_DEFAULTS.botToken) return undefined;
  return () => {
    // The client's own warnings stay quiet: a failure is the command's one line.
    const client = new WebClient(config.slack.botToken, {
      ...slackClientOptions(config.slack.apiUrl),
      logLevel: LogLevel.ERROR,
    });
    const sandbox = config.service.baseUrl === undefined;
    return slackPasskeyNotices(noteOnSandbox(client, sandbox), {
      approvalsChannel: config.approvalsChannel,
      sandbox,
      // The command says itself, in one line, what Slack did not take.
      log: createLogger({ level: 'silent' }),
    });
  };
}

export function openCliRole(config: Config, io: Pick<CliIo, 'stderr'>): CliRole {
  let sandbox: Sandbox | undefined;
  let service: Promise<ServiceClient> | undefined;
  let redis: Promise<RedisClient> | undefined;
  let queues: Queues | undefined;
  let app: Promise<RampartApp> | undefined;

  async function openService(): Promise<ServiceClient> {
    const connection = await connectService(config);
    sandbox = connection.sandbox;
    if (sandbox)
      io.stderr.write('note: SERVICE_BASE_URL is not set, so this is the built-in sandbox (no real money).\n');
    return connection.service;
  }
  const openedService = (): Promise<ServiceClient> => {
    service ??= openService();
    return service;
  };

  async function openStore(): Promise<RedisClient> {
    // The same factory as the app (store/redis.ts), failing at once: an operator is waiting.
    try {
      return await openRedis(config.redis, 'cli');
    } catch (err) {
      throw err instanceof RedisUnavailableError ? new CliError(err.message) : err;
    }
  }
  const openedRedis = (): Promise<RedisClient> => {
    redis ??= openStore();
    return redis;
  };

  const role: CliRole = {
    app() {
      app ??= cliApp({
        config,
        redis: openedRedis,
        service: openedService,
        async queues() {
          const client = await openedRedis();
          // The CLI reports failures itself, one line each; the queues' own errors stay quiet.
          queues ??= createQueues(client, config.redis.prefix, createLogger({ level: 'silent' }));
          return queues;
        },
        notices: passkeyNotices(config),
      });
      return app;
    },
    service: serviceReads(config, openedService),
    async *doctor(): AsyncGenerator<Check> {
      // Redis on its own connection, so that a failing Redis is one ✗ line.
      let probe: OpenedProbe | undefined;
      try {
        yield* doctor({
          config,
          async redis() {
            probe = await openRedisProbe(config.redis);
            return probe.probe;
          },
          service: openedService,
          slack: slackProbe(config.slack.botToken, config.slack.apiUrl),
          // Warns when fewer approvers hold a passkey than the largest quorum needs. Read
          // through the app, opened here only (a Redis that is down is the Redis line's ✗ above).
          passkeys: async () => {
            const opened = await role.app();
            return { usableHolders: (now) => opened.passkeys.holders(now) };
          },
          destinations: async () => (await role.app()).destinations.mode(),
          screening: async () => (await role.app()).screening.status(),
        });
      } finally {
        await probe?.close();
      }
    },
    async close() {
      await queues?.close();
      const client = await service?.catch(() => undefined);
      await client?.close();
      await sandbox?.close();
      const opened = await redis?.catch(() => undefined);
      if (opened) await closeRedis(opened);
    },
  };
  return role;
}
