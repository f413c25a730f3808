/**
 * Starts the whole workbench in-process for a test, on a free port with its own Redis prefix,
 * and launches the browser the browser tests drive (./browser-path.ts decides which).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { type Browser, chromium } from 'playwright-core';
import { expect } from 'vitest';
import { startWorkbench, type Workbench } from '../../devkit/workbench/index.js';
import { createLogger } from '../../src/log.js';
import { cli } from '../cli/support.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';
import { type BrowserHost, resolveBrowser } from './browser-path.js';
import { type LaunchableBrowser, packagedChromium, packagedInstalled } from './chromium.js';

export const ARTIFACTS = 'test-artifacts';
export const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';

export interface TestWorkbench extends Workbench {
  logs: LogSink;
  prefix: string;
}

export async function startTestWorkbench(name: string, env: Record<string, string> = {}): Promise<TestWorkbench> {
  const prefix = `test-workbench-${name}-${randomUUID().slice(0, 8)}`;
  const logs = new LogSink();
  const workbench = await startWorkbench({
    env: { NODE_ENV: 'test', LOG_LEVEL: 'debug', REDIS_URL, REDIS_PREFIX: prefix, ...env },
    logger: () => createLogger({ level: 'debug' }, logs),
    port: 0,
  });
  return {
    ...workbench,
    logs,
    prefix,
    async close() {
      await workbench.close();
      await deleteKeys(prefix);
    },
  };
}

/**
 * `rampart passkeys enrol-link --user` run against the workbench's Redis and pages, exactly as an
 * operator would run it beside a server with STEP_UP_ABOVE=USDC=10000; the link it prints.
 */
export async function enrolLinkFromCli(wb: TestWorkbench, user: string): Promise<string> {
  const env = {
    NODE_ENV: 'test',
    REDIS_URL,
    REDIS_PREFIX: wb.prefix,
    STEP_UP_ABOVE: 'USDC=10000',
    PUBLIC_URL: wb.config.stepUp.publicUrl ?? '',
  };
  const link = await cli(['passkeys', 'enrol-link', '--user', user], env);
  expect(link.code).toBe(0);
  return link.stdout.trim();
}

/** This machine, as the resolver sees it; a test may replace CHROME_PATH. */
export function thisMachine(env: Record<string, string | undefined> = process.env): BrowserHost {
  return {
    platform: process.platform,
    arch: process.arch,
    chromePath: env.CHROME_PATH,
    home: homedir(),
    exists: existsSync,
    packagedInstalled: packagedInstalled(),
  };
}

/** The browser to launch, or one sentence saying how to get one. */
export async function findBrowser(host: BrowserHost = thisMachine()): Promise<LaunchableBrowser> {
  const choice = resolveBrowser(host);
  if (choice.kind === 'none') throw new Error(choice.message);
  if (choice.kind === 'packaged') return packagedChromium();
  return { executablePath: choice.path, env: {} };
}

/** Fails, never skips: with no browser the error says how to get one. */
export async function launchChromium(host?: BrowserHost): Promise<Browser> {
  const browser = await findBrowser(host);
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** POSTs `body` as JSON to the workbench's own API, as its page does; expects 200 and returns the answer. */
export async function postJson(wb: Workbench, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, wb.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
