/**
 * `npm run dev`: Rampart on this machine with no Slack workspace and no wallet service. Starts
 * the workbench (fake Slack + Rampart + the in-process sandbox) and prints the one URL to open.
 * An entry point like main.ts: the environment reaches Rampart only through loadConfig.
 */

import { ConfigError } from '../src/errors.js';
import { createLogger, type Logger } from '../src/log.js';
import { startWorkbench, type Workbench, WorkbenchRefusedError } from './workbench/index.js';

async function dev(): Promise<void> {
  let workbench: Workbench;
  let log: Logger | undefined;
  try {
    workbench = await startWorkbench({
      env: process.env,
      logger: (config) => {
        log = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
        return log;
      },
    });
  } catch (err) {
    if (err instanceof WorkbenchRefusedError) process.stderr.write(`${err.message}\n`);
    else if (err instanceof ConfigError) process.stderr.write(`${err.message}\nSee README.md, "Configuration".\n`);
    else {
      const message = err instanceof Error ? err.message : String(err);
      const refused = (err as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
      const hint = refused ? '\nIs Redis running? Rampart needs it (REDIS_URL, default redis://127.0.0.1:6379).' : '';
      process.stderr.write(`The workbench could not start: ${message}${hint}\n`);
    }
    process.exit(1);
  }
  const service = workbench.config.service.baseUrl
    ? 'the wallet service at SERVICE_BASE_URL (real calls!)'
    : 'the built-in sandbox (no real money)';
  const banner =
    `\nRampart workbench: ${workbench.url}\n` +
    `Slack is played by the workbench; Rampart talks to ${service}. Ctrl-C stops it.\n\n`;
  // After the start-up log lines, so the URL to open is the last thing on the screen.
  if (log) log.flush(() => process.stdout.write(banner));
  else process.stdout.write(banner);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    workbench
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void dev();
