/**
 * What a command may use: config, output, and the service and Redis, each opened only when a
 * command first asks and closed by close(). Without SERVICE_BASE_URL (never in production, see
 * config) the in-process sandbox stands in, as in src/rampart.ts.
 */
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { connectService } from '../connect-service.js';
import { createQueues, type Queues } from '../queue/queues.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ServiceClient } from '../service/client.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
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
  close(): Promise<void>;
}

/** host:port of a Redis URL, without the password it may carry. */
export const redisWhere = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
};

export function createContext(config: Config, io: CliIo, json: boolean): Context {
  let sandbox: Sandbox | undefined;
  let service: Promise<ServiceClient> | undefined;
  let redis: Redis | undefined;
  let store: Promise<RequestStore> | undefined;
  let queues: Queues | undefined;

  async function openService(): Promise<ServiceClient> {
    const connection = await connectService(config);
    sandbox = connection.sandbox;
    if (sandbox)
      io.stderr.write('note: SERVICE_BASE_URL is not set, so this is the built-in sandbox (no real money).\n');
    return connection.service;
  }

  async function openStore(): Promise<RequestStore> {
    // Fail at once instead of ioredis's endless reconnecting: an operator is waiting.
    redis = new Redis(config.redis.url, {
      lazyConnect: true,
      connectTimeout: 3_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    redis.on('error', () => {}); // reported once below, not as ioredis's "Unhandled error event"
    try {
      await redis.connect();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new CliError(
        `Redis at ${redisWhere(config.redis.url)} cannot be reached${typeof code === 'string' ? ` (${code})` : ''}; start it or correct REDIS_URL.`,
      );
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
    async queues() {
      await this.store();
      if (!redis) throw new CliError('Redis is not open.');
      queues ??= createQueues(redis, config.redis.prefix);
      return queues;
    },
    async close() {
      await queues?.close();
      const client = await service?.catch(() => undefined);
      await client?.close();
      await sandbox?.close();
      if (redis?.status === 'ready') await redis.quit().catch(() => redis?.disconnect());
      else redis?.disconnect();
    },
  };
}
