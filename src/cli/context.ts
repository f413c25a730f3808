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
import { ApiKeyStore } from '../store/api-keys.js';
import { ControlStore, UnfreezeStore } from '../store/controls.js';
import { PasskeyStore } from '../store/passkeys.js';
import { closeRedis, openRedis, type RedisClient } from '../store/redis.js';
import { RedisUnavailableError } from '../store/redis-errors.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
import { StepUpTokens } from '../store/step-up-tokens.js';
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
  service(): Promise<ServiceClient>;
  store(): Promise<RequestStore>;
  /** Rampart's registry and queues, on the same Redis as store() (issue 11: imports). */
  registry(): Promise<Registry>;
  queues(): Promise<Queues>;
  /** The velocity ledger, on the same Redis (issue 20: `batch check` applies the limits). */
  controls(): Promise<ControlStore>;
  /** The unfreeze proposal beside the freeze (issue 13): the app façade binds it; no command uses it. */
  unfreeze(): Promise<UnfreezeStore>;
  /** Issue 22: approvers' passkeys and the passkey pages' one-time links, same Redis. */
  passkeys(): Promise<{ passkeys: PasskeyStore; stepUpTokens: StepUpTokens }>;
  /**
   * Issue 22: the owner's passkey messages (and cards) through Slack; undefined when no bot token
   * is configured (the development default is not a workspace). Failures come back, not thrown.
   */
  notices(): PasskeyNotices | undefined;
  /**
   * Issue 18 §3: the use cases bound to this command's service and Redis (opened on first use);
   * commands call these rather than the stores.
   */
  app(): Promise<RampartApp>;
  /** Issue 21: API keys, on the same Redis as store(). */
  apiKeys(): Promise<ApiKeyStore>;
  close(): Promise<void>;
}

export function createContext(config: Config, io: CliIo, json: boolean): Context {
  let sandbox: Sandbox | undefined;
  let service: Promise<ServiceClient> | undefined;
  let redis: RedisClient | undefined;
  let store: Promise<RequestStore> | undefined;
  let queues: Queues | undefined;
  let app: Promise<RampartApp> | undefined;

  async function openService(): Promise<ServiceClient> {
    const connection = await connectService(config);
    sandbox = connection.sandbox;
    if (sandbox)
      io.stderr.write('note: SERVICE_BASE_URL is not set, so this is the built-in sandbox (no real money).\n');
    return connection.service;
  }

  async function openStore(): Promise<RequestStore> {
    // The same factory as the app (store/redis.ts), failing at once: an operator is waiting.
    try {
      redis = await openRedis(config.redis, 'cli');
    } catch (err) {
      throw err instanceof RedisUnavailableError ? new CliError(err.message) : err;
    }
    return new RequestStore(redis, config.redis.prefix);
  }

  return {
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
    store() {
      store ??= openStore();
      return store;
    },
    async registry() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      return new Registry(redis, config.redis.prefix);
    },
    async controls() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      return new ControlStore(redis, config.redis.prefix);
    },
    async unfreeze() {
      const controls = await this.controls();
      if (!redis) throw new CliError('Redis is not open.');
      return new UnfreezeStore(redis, config.redis.prefix, controls);
    },
    notices() {
      if (config.slack.botToken === DEV_DEFAULTS.botToken) return undefined;
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
    },
    app() {
      app ??= cliApp(this);
      return app;
    },
    async apiKeys() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      return new ApiKeyStore(redis, config.redis.prefix);
    },
    async queues() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      // The CLI reports failures itself, one line each; the queues' own errors stay quiet.
      queues ??= createQueues(redis, config.redis.prefix, createLogger({ level: 'silent' }));
      return queues;
    },
    async passkeys() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      return {
        passkeys: new PasskeyStore(redis, config.redis.prefix),
        stepUpTokens: new StepUpTokens(redis, config.redis.prefix),
      };
    },
    async close() {
      await queues?.close();
      const client = await service?.catch(() => undefined);
      await client?.close();
      await sandbox?.close();
      if (redis) await closeRedis(redis);
    },
  };
}
