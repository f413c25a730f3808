/**
 * Rampart as in production, on loopback: the real Bolt HTTP receiver, the real workers, a real
 * Redis under a unique prefix, the sandbox over HTTP, and the fake Slack Web API. Every test
 * file starts one and closes it; close() removes every Redis key it made.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import {
  type FakeSlack,
  SlackDriver,
  type StoredMessage,
  type StoredView,
  socketModeTransport,
  startFakeSlack,
} from '../../devkit/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { type RampartOptions, type Running, startRampart } from '../../src/rampart.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { deleteKeysWithPrefix } from '../../src/store/delete-prefix.js';
import { closeRedis, openRedis } from '../../src/store/redis.js';
import { LogSink } from './log-sink.js';

export const PEOPLE = {
  requester: 'U0REQUESTER',
  approver1: 'U0APPROVER1',
  approver2: 'U0APPROVER2',
  groupMember: 'U0GROUPIE',
  outsider: 'U0OUTSIDER',
} as const;

export const APPROVALS = 'C0APPROVALS';
export const GENERAL = 'C0GENERAL';
export const SIGNING_SECRET = 'test-signing-secret';
export const BOT_TOKEN = 'xoxb-test-token';
export const SERVICE_KEY = 'test-service-key-5c1e';
// The suite runs against any Redis; REDIS_URL picks it (default the local one).
/** The app-level token the harness gives Rampart and the fake in Socket Mode. */
export const APP_TOKEN = 'xapp-1-A0FAKE-test-app-token';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Harness {
  fake: FakeSlack;
  sandbox: Sandbox;
  rampart: Running;
  driver: SlackDriver;
  logs: LogSink;
  prefix: string;
  /** Starts another Rampart process-equivalent (e.g. a second worker) on the same Redis prefix. */
  startAnother(env?: Record<string, string>, options?: RampartOptions): Promise<Running>;
  close(): Promise<void>;
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
}

/** Removes what a Rampart made, wherever its settings point (one Redis or a cluster). */
export async function deleteKeysOf(settings: Config['redis']): Promise<void> {
  const redis = await openRedis(settings, 'cli');
  await deleteKeysWithPrefix(redis, settings.prefix);
  await closeRedis(redis);
}

export function envFor(
  prefix: string,
  sandbox: Sandbox,
  fake: FakeSlack,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    PORT: '0',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_API_KEY: SERVICE_KEY,
    WALLETS: 'ops=wal_ops_7f3a,treasury=wal_treasury_91c2,payroll=wal_payroll_44d0,legacy=wal_legacy_0b19',
    APPROVALS_CHANNEL: APPROVALS,
    APPROVERS: `${PEOPLE.approver1},${PEOPLE.approver2},S0TREASURY`,
    ...extra,
  };
}

export interface HarnessOptions {
  /** Slack reaches Rampart over the fake's Socket Mode instead of signed HTTP. */
  socketMode?: boolean;
}

export async function startHarness(
  name: string,
  extraEnv: Record<string, string> = {},
  options: RampartOptions = {},
  harness: HarnessOptions = {},
): Promise<Harness> {
  const prefix = `test-${name}-${randomUUID().slice(0, 8)}`;
  const sandbox = await startSandbox({ port: 0, apiKey: SERVICE_KEY, bearerToken: 'test-bearer' });
  const fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    ...(harness.socketMode ? { appToken: APP_TOKEN } : {}),
    people: Object.values(PEOPLE).map((id) => ({ id, name: id.toLowerCase(), real_name: id, tz: 'Africa/Lagos' })),
    usergroups: { S0TREASURY: [PEOPLE.groupMember] },
    channels: [
      { id: APPROVALS, name: 'treasury-approvals' },
      { id: GENERAL, name: 'treasury' },
      // A channel the bot was never invited to: posting there fails with not_in_channel.
      { id: 'C0NOTINVITED', name: 'treasury-private', is_member: false },
    ],
  });
  const logs = new LogSink();
  const log = createLogger({ level: 'debug' }, logs);
  const started: Running[] = [];
  const socketEnv: Record<string, string> = harness.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : {};
  const startAnother = async (env: Record<string, string> = {}, opts: RampartOptions = options) => {
    const config = loadConfig(envFor(prefix, sandbox, fake, { ...socketEnv, ...extraEnv, ...env }));
    const running = await startRampart(config, log, opts);
    started.push(running);
    return running;
  };
  const rampart = await startAnother({}, options);
  const driver = new SlackDriver({
    url: `http://127.0.0.1:${rampart.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    fake,
    defaultChannelId: GENERAL,
    ...(fake.socketMode ? { transport: socketModeTransport(fake.socketMode) } : {}),
  });
  return {
    fake,
    sandbox,
    rampart,
    driver,
    logs,
    prefix,
    startAnother,
    async close() {
      const settings = rampart.deps.config.redis;
      for (const r of started.reverse()) await r.close().catch(() => {});
      await fake.close();
      await sandbox.close();
      await deleteKeysOf(settings);
    },
  };
}

/** A signed-request driver for the Rampart listening on `port` (another instance than the harness's own). */
export const driverFor = (fake: FakeSlack, port: number | undefined): SlackDriver =>
  new SlackDriver({
    url: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    fake,
    defaultChannelId: GENERAL,
  });

/** Polls until `probe` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const blocksText = (m: { text?: string; blocks?: unknown[] } | undefined): string =>
  JSON.stringify(m?.blocks ?? []) + (m?.text ?? '');

export const lastView = (fake: FakeSlack, user: string): StoredView | undefined => fake.views(user).at(-1);

export const cardFor = (fake: FakeSlack, id: string): StoredMessage | undefined =>
  fake.messages(APPROVALS).find((m) => blocksText(m).includes(id));

/** Secrets that must never reach a log line (DESIGN invariant 6). */
export const SECRETS = [SERVICE_KEY, BOT_TOKEN, SIGNING_SECRET] as const;

/**
 * What every end-to-end run must hold at its end: no Block Kit limit broken, every ack measured
 * and under Slack's 3 s, and no secret in any log line.
 */
export function expectHealthyRun(h: Harness): void {
  expect(h.fake.violations).toEqual([]);
  expect(h.driver.ackTimes.length).toBeGreaterThan(0);
  expect(Math.max(...h.driver.ackTimes)).toBeLessThan(3000);
  for (const secret of SECRETS) expect(h.logs.text).not.toContain(secret);
}

export { readableTexts } from './block-texts.js';

/**
 * Personal data (BVN, date of birth, account numbers) never reaches a log line or anything sent
 * to Slack: messages, cards, views, options answers and acks (DESIGN invariant 6).
 */
export function expectNoPersonalData(h: Harness, values: readonly string[], extra: readonly unknown[] = []): void {
  const outputs = JSON.stringify([h.fake.calls.map((c) => c.args), extra]);
  for (const value of values) {
    expect(h.logs.text, `a log line holds ${value.slice(0, 2)}…`).not.toContain(value);
    expect(outputs, `something sent to Slack holds ${value.slice(0, 2)}…`).not.toContain(value);
  }
}
