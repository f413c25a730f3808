/**
 * What the HTTP API adapter needs: the app's members it calls (the one door every way in
 * shares), the log, and plain settings (body limits, the configured wallets and the batch row
 * limit its field parsing reads). The composition root builds the app; the adapter builds no store.
 */
import type { RampartApp } from '../../app/index.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { BODY_LIMITS, type BodyLimits } from './http-io.js';

export type ApiApp = Pick<RampartApp, 'apiKeys' | 'payments' | 'batches' | 'approvals' | 'reads'>;

export interface ApiDeps {
  app: ApiApp;
  log: Logger;
  body: BodyLimits;
  wallets: Config['wallets'];
  /** BATCH_MAX_ROWS: the most rows one batch body may hold. */
  maxRows: number;
}

export function apiDeps(
  app: ApiApp,
  settings: { config: Pick<Config, 'wallets' | 'batch'>; log: Logger },
  options: { body?: Partial<BodyLimits> } = {},
): ApiDeps {
  return {
    app,
    log: settings.log,
    body: { ...BODY_LIMITS, ...options.body },
    wallets: settings.config.wallets,
    maxRows: settings.config.batch.maxRows,
  };
}
