/**
 * Composition root: configuration, logging, start, and orderly shutdown on SIGTERM/SIGINT.
 */
import { type Config, loadConfig } from './config.js';
import { ConfigError } from './errors.js';
import { createLogger } from './log.js';
import { type Running, startRampart } from './rampart.js';

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
    process.stderr.write(`Rampart could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new requests, finishing running jobs');
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
