/**
 * Starts the whole workbench in-process for a test, on a free port with its own Redis prefix,
 * and launches the Chromium that comes with npm install (./chromium.ts) for the browser tests.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Browser, chromium } from 'playwright-core';
import { startWorkbench, type Workbench } from '../../devkit/workbench/index.js';
import { createLogger } from '../../src/log.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';
import { packagedChromium } from './chromium.js';

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
 * Fails, never skips: the Chromium is a devDependency, so `npm install` is all a machine needs.
 * `executablePath` is for the test of that failure.
 */
export async function launchChromium(executablePath?: string): Promise<Browser> {
  const packaged = executablePath === undefined ? await packagedChromium() : { executablePath, env: {} };
  if (!existsSync(packaged.executablePath)) {
    throw new Error(
      `Chromium is missing at ${packaged.executablePath}; the workbench browser tests need it. Run npm install (it comes with the devDependency @sparticuz/chromium).`,
    );
  }
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: packaged.executablePath,
    env: { ...process.env, ...packaged.env },
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
