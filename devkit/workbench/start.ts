/**
 * Starts the whole workbench in this process: the fake Slack (people, channels, user groups),
 * Rampart itself (startRampart, with the in-process sandbox unless SERVICE_BASE_URL is set)
 * pointed at the fake, the SlackDriver that plays the Slack client, and the page's server.
 * dev.ts calls it with process.env; tests call it with their own environment.
 */

import { createWebHandler } from '../../src/adapters/web/handler.js';
import { createApp } from '../../src/app/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/log.js';
import { type Running, startRampart } from '../../src/rampart.js';
import { deleteKeysWithPrefix } from '../../src/store/delete-prefix.js';
import { closeRedis, openRedis } from '../../src/store/redis.js';
import { type FakeSlack, SlackDriver, startFakeSlack } from '../index.js';
import { WorkbenchActions } from './actions.js';
import { type Assets, loadAssets } from './assets.js';
import { readSlashCommands, type SlashCommand } from './manifest-commands.js';
import { seedBalanceHistory } from './seed-history.js';
import { startWorkbenchServer, type WorkbenchServer, type WorkbenchServerDeps } from './server.js';
import { TEAM_CHANNEL, type Workspace, workspaceFor } from './workspace.js';

/** Redis namespace of `npm run dev`; cleared at start, since the fake Slack's messages did not survive. */
export const WORKBENCH_REDIS_PREFIX = 'rampart-workbench';

export class WorkbenchRefusedError extends Error {
  readonly code = 'WORKBENCH_REFUSED';
}

export interface WorkbenchOptions {
  /** The environment the configuration is read from (through loadConfig). */
  env: Readonly<Record<string, string | undefined>>;
  /** Builds the logger once the configuration is known; default: pino at LOG_LEVEL. */
  logger?: (config: Config) => Logger;
  /** The page's port; default PORT (3000). 0 picks a free one. */
  port?: number;
}

export interface Workbench {
  /** Open this in a browser. */
  url: string;
  config: Config;
  workspace: Workspace;
  fake: FakeSlack;
  rampart: Running;
  driver: SlackDriver;
  close(): Promise<void>;
}

/** Checks Redis answers (one sentence when not), and clears `prefix` when given. Returns how many keys were deleted. */
async function prepareRedis(settings: Config['redis'], prefix: string | undefined): Promise<number> {
  const redis = await openRedis(settings, 'cli');
  try {
    return prefix === undefined ? 0 : await deleteKeysWithPrefix(redis, prefix);
  } finally {
    await closeRedis(redis);
  }
}

/**
 * With step-up on and no PUBLIC_URL, the passkey pages are served by the workbench's
 * own server under this path, at `http://localhost:<its port>` (a secure context and a valid
 * WebAuthn RP ID, unlike 127.0.0.1). Known only once the port is bound, hence a placeholder first.
 */
const PAGES_PATH = '/rampart';
const PLACEHOLDER_URL = `http://localhost${PAGES_PATH}`;
const stepUpOn = (env: WorkbenchOptions['env']): boolean =>
  (env.STEP_UP_ABOVE?.trim() ?? '') !== '' || env.STEP_UP_NEW_DESTINATION?.trim() === 'on';

function withPagesUrl(config: Config, placeholder: boolean, serverUrl: string): Config {
  if (!placeholder) return config;
  const publicUrl = `http://localhost:${new URL(serverUrl).port}${PAGES_PATH}`;
  return { ...config, stepUp: { ...config.stepUp, publicUrl, rpId: 'localhost' } };
}

export interface PageOptions {
  fake: FakeSlack;
  driver: SlackDriver;
  workspace: Workspace;
  commands: SlashCommand[];
  port: number;
}

function pageDeps(options: Omit<PageOptions, 'port'>, assets: Assets): WorkbenchServerDeps {
  const { fake, driver, workspace, commands } = options;
  const actions = new WorkbenchActions(fake, driver, commands);
  const sources = { fake, workspace, commands, errorsFor: (viewId: string) => actions.errorsFor(viewId) };
  return { fake, actions, sources, assets };
}

/** The page alone, for any app behind the driver: startWorkbench puts Rampart there. */
export async function startWorkbenchPage(options: PageOptions): Promise<WorkbenchServer> {
  return startWorkbenchServer(pageDeps(options, await loadAssets()), options.port);
}

export async function startWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  // Checked before loadConfig, which in production would list missing production settings instead.
  if (options.env.NODE_ENV === 'production') {
    throw new WorkbenchRefusedError(
      'The workbench (npm run dev) is a development tool and does not run with NODE_ENV=production; use npm start.',
    );
  }
  // The workbench signs its own requests on loopback: the development secret is fine here.
  const placeholder = stepUpOn(options.env) && (options.env.PUBLIC_URL?.trim() ?? '') === '';
  const loaded = loadConfig(
    { REDIS_PREFIX: WORKBENCH_REDIS_PREFIX, ...options.env, ...(placeholder ? { PUBLIC_URL: PLACEHOLDER_URL } : {}) },
    { development: true },
  );
  const log = options.logger?.(loaded) ?? createLogger({ level: loaded.logLevel });
  const workspace = workspaceFor(loaded);
  const [commands, assets] = await Promise.all([readSlashCommands(), loadAssets()]);
  let attach: (deps: WorkbenchServerDeps) => void = () => {};
  const server = await startWorkbenchServer(
    new Promise<WorkbenchServerDeps>((resolve) => {
      attach = resolve;
    }),
    options.port ?? loaded.port,
  );
  const config = withPagesUrl(loaded, placeholder, server.url);
  let fake: FakeSlack | undefined;
  let rampart: Running | undefined;
  try {
    fake = await startFakeSlack({
      botToken: config.slack.botToken,
      people: workspace.people.map(({ role: _role, ...person }) => person),
      channels: workspace.channels,
      usergroups: workspace.usergroups,
      ...(config.slack.teamId ? { teamId: config.slack.teamId } : {}),
    });
    // Only the workbench's own namespace is cleared: a REDIS_PREFIX someone chose is left alone.
    const ours = config.redis.prefix === WORKBENCH_REDIS_PREFIX;
    const cleared = await prepareRedis(config.redis, ours ? WORKBENCH_REDIS_PREFIX : undefined);
    if (cleared > 0) log.info({ cleared }, 'cleared the previous workbench run from Redis');
    // One process playing every role, over HTTP to the fake Slack (never Socket Mode).
    rampart = await startRampart(
      { ...config, role: 'all', port: 0, slack: { ...config.slack, apiUrl: fake.apiUrl, appToken: undefined } },
      log,
    );
  } catch (err) {
    await rampart?.close();
    await fake?.close();
    await server.close();
    throw err;
  }
  // App Home's charts start with two weeks of history on the sandbox.
  const seeded = await seedBalanceHistory(rampart).catch((err: unknown) => {
    log.warn({ err }, 'could not generate balance history for the sandbox');
    return 0;
  });
  if (seeded > 0) log.info({ snapshots: seeded }, 'generated two weeks of sandbox balance history');
  const driver = new SlackDriver({
    url: `http://127.0.0.1:${rampart.port}/slack/events`,
    signingSecret: config.slack.signingSecret,
    fake,
    defaultChannelId: TEAM_CHANNEL,
  });
  const { publicUrl } = config.stepUp;
  const pages = publicUrl
    ? {
        path: new URL(publicUrl).pathname.replace(/\/+$/, ''),
        handler: createWebHandler(createApp(rampart.deps), config.stepUp, log),
      }
    : undefined;
  attach({ ...pageDeps({ fake, driver, workspace, commands }, assets), ...(pages ? { pages } : {}) });
  const started = { fake, rampart };
  return {
    url: server.url,
    config,
    workspace,
    fake,
    rampart,
    driver,
    async close() {
      await server.close();
      await started.rampart.close();
      await started.fake.close();
    },
  };
}
