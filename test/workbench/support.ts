/**
 * Starts the whole workbench in-process for a test, on a free port with its own Redis prefix,
 * and launches the system's Chromium (never a downloaded one) for the browser tests.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Browser, chromium } from 'playwright-core';
import { startWorkbench, type Workbench } from '../../src/devtools/workbench/index.js';
import { createLogger } from '../../src/log.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { LogSink } from '../support/log-sink.js';

export const CHROMIUM = '/usr/bin/chromium';
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

/** Fails, never skips, without Chromium: CI installs it (.ci/run). */
export async function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium is missing at ${executablePath}; the workbench browser tests need it. Install it with: apt-get update && apt-get install -y chromium`,
    );
  }
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath,
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
