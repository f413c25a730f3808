/**
 * What a command may use: config, output, and the service and Redis, each opened only when a
 * command first asks and closed by close(). Without SERVICE_BASE_URL (never in production, see
 * config) the in-process sandbox stands in, as in src/rampart.ts.
 */
import { LogLevel, WebClient } from '@slack/web-api';
import type { RampartApp } from '../app/index.js';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import { type Config, DEV_DEFAULTS } from '../config.js';
import { connectService } from '../connect-service.js';
import { createLogger } from '../log.js';
import { createQueues, type Queues } from '../queue/queues.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ServiceClient } from '../service/client.js';
import { slackClientOptions } from '../slack-api/client-options.js';
import { slackPasskeyNotices } from '../slack-api/passkey-notices.js';
import { closeRedis, openRedis, type RedisClient } from '../store/redis.js';
import { RedisUnavailableError } from '../store/redis-errors.js';
import { cliApp } from './cli-app.js';
import type { CliIo } from './io.js';
import { CliError } from './problems.js';

export interface Context {
  config: Config;
  io: CliIo;
  /** Prints the command's answer: text as is, or the value as JSON with --json. */
  answer(text: string, value: unknown): void;
  /** A line for the person, on stderr, so stdout stays clean for scripts. */
  note(text: string): void;
  /**
   * The service client itself, for the commands that only ask the service (wallet, balances,
   * rate, lookup, identity, user create): they must work, and open nothing else, with Redis down.
   */
  service(): Promise<ServiceClient>;
  /**
   * Issue 18 §3: the use cases bound to this command's Redis (opened on the first call), the
   * service, the queues and Slack (each opened on first use); commands never reach a store.
   */
  app(): Promise<RampartApp>;
  close(): Promise<void>;
}

/**
 * Issue 22: builds the owner's passkey messages (and cards) through Slack; undefined when no bot
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
    return slackPasskeyNotices(client, {
      approvalsChannel: config.approvalsChannel,
      sandbox: config.service.baseUrl === undefined,
      // The command says itself, in one line, what Slack did not take.
      log: createLogger({ level: 'silent' }),
    });
  };
}

export function createContext(config: Config, io: CliIo, json: boolean): Context {
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

  const context: Context = {
    config,
    io,
    answer(text, value) {
      io.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
    },
    note(text) {
      io.stderr.write(`${text}\n`);
    },
    service() {
      service ??= openService();
      return service;
    },
    app() {
      app ??= cliApp({
        config,
        redis: openedRedis,
        service: () => context.service(),
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
    async close() {
      await queues?.close();
      const client = await service?.catch(() => undefined);
      await client?.close();
      await sandbox?.close();
      const opened = await redis?.catch(() => undefined);
      if (opened) await closeRedis(opened);
    },
  };
  return context;
}
