/**
 * Composition root: configuration, logging, start, and orderly shutdown on SIGTERM/SIGINT.
 */

import { type Config, loadConfig } from './config.js';
import { maskUrlCredentials } from './domain/url-credentials.js';
import { ConfigError } from './errors.js';
import { createLogger } from './log.js';
import { type Running, startRampart } from './rampart.js';

/** Inside docker-compose's 30 s stop grace period (README "Docker"). */
const FORCE_QUIT_MS = 28_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee README.md, "Configuration".\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger({
    level: config.logLevel,
    pretty: config.env === 'development' && process.stdout.isTTY === true,
  });
  let running: Running;
  try {
    running = await startRampart(config, log);
  } catch (err) {
    log.fatal({ err }, 'Rampart could not start');
    process.stderr.write(
      `Rampart could not start: ${maskUrlCredentials(err instanceof Error ? err.message : String(err))}\n`,
    );
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new requests, finishing running jobs');
    // Force-quit if a step hangs; a money call has its own total deadline (SERVICE_RESPONSE_TIMEOUT).
    // A longer configured money-call deadline is waited for: cutting it would leave an unknown outcome.
    const afterMs = Math.max(FORCE_QUIT_MS, config.service.responseTimeoutMs + 5_000);
    setTimeout(() => {
      log.error({ afterMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, afterMs).unref();
    running
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
