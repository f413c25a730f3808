/**
 * What the bench runs against, all in this process and on loopback: the sandbox, the fake
 * Slack Web API and Rampart as `main.ts` starts it, under a unique Redis prefix removed at the end.
 */
import { randomUUID } from 'node:crypto';
import { type FakeSlack, SlackDriver, startFakeSlack } from '../devkit/index.js';
import { type Config, loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { type Running, startRampart } from '../src/rampart.js';
import { type Sandbox, startSandbox } from '../src/sandbox/index.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { closeRedis, openRedis } from '../src/store/redis.js';
import { type ApprovalTrace, createApprovalTrace } from './approval-trace.js';

export const PEOPLE = { requester: 'U0REQUESTER', approver: 'U0APPROVER1', other: 'U0APPROVER2' } as const;
export const APPROVALS = 'C0APPROVALS';
export const GENERAL = 'C0GENERAL';
export const SIGNING_SECRET = 'bench-signing-secret';
export const BOT_TOKEN = 'xoxb-bench-token';
export const SERVICE_KEY = 'bench-service-key';

export interface World {
  prefix: string;
  redisUrl: string;
  sandbox: Sandbox;
  fake: FakeSlack;
  rampart: Running;
  /** Rampart's request URL. */
  url: string;
  driver: SlackDriver;
  /** Stage timings of the approval path, from decorators passed to Rampart at start. */
  trace: ApprovalTrace;
  close(): Promise<void>;
}

/** Removes every key under the settings' prefix, on one Redis or a cluster. */
export async function deleteKeys(settings: Config['redis']): Promise<number> {
  const redis = await openRedis(settings, 'cli');
  try {
    return await deleteKeysWithPrefix(redis, settings.prefix);
  } finally {
    await closeRedis(redis);
  }
}

/** `clusterNodes`: REDIS_CLUSTER_NODES, to run on a Redis Cluster (bench part 4). */
/** `env`: settings beside the bench's own (BATCH_RATE=off). */
export async function startWorld(
  redisUrl: string,
  clusterNodes?: string,
  env: Record<string, string> = {},
): Promise<World> {
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKey: SERVICE_KEY });
  const fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    people: Object.values(PEOPLE).map((id) => ({ id, name: id.toLowerCase(), real_name: id, tz: 'Africa/Lagos' })),
    channels: [
      { id: APPROVALS, name: 'treasury-approvals' },
      { id: GENERAL, name: 'treasury' },
    ],
  });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PORT: '0',
    // The bench's one requester opens far more than a person would (MAX_OPEN_PER_REQUESTER's cap).
    MAX_OPEN_PER_REQUESTER: '10000',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    ...(clusterNodes ? { REDIS_CLUSTER_NODES: clusterNodes } : {}),
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_API_KEY: SERVICE_KEY,
    APPROVALS_CHANNEL: APPROVALS,
    APPROVERS: `${PEOPLE.approver},${PEOPLE.other}`,
    ...env,
  });
  const trace = createApprovalTrace();
  let rampart: Running;
  try {
    rampart = await startRampart(config, createLogger({ level: 'silent' }), { decorate: trace.decorate });
  } catch (err) {
    await fake.close();
    await sandbox.close();
    await deleteKeys(config.redis);
    throw err;
  }
  const url = `http://127.0.0.1:${rampart.port}/slack/events`;
  const driver = new SlackDriver({ url, signingSecret: SIGNING_SECRET, fake, defaultChannelId: GENERAL });
  return {
    prefix,
    redisUrl,
    sandbox,
    fake,
    rampart,
    url,
    driver,
    trace,
    async close() {
      await rampart.close();
      await fake.close();
      await sandbox.close();
      await deleteKeys(config.redis);
    },
  };
}
