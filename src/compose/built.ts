/**
 * What the composition root has built before it starts a role (startRampart split
 * into building the infrastructure, building the app, and starting the adapters of each role).
 */

import type { WebClient } from '@slack/web-api';
import type { Queues } from '../adapters/jobs/queues.js';
import type { ScreeningService } from '../app/ports.js';
import type { AuditWebhook } from '../audit/webhook-delivery.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ServiceClient } from '../service/client.js';
import type { RedisClient } from '../store/redis.js';
import type { ChangeListener, RequestStore } from '../store/requests.js';

/** Decorators the bench and tests wrap around what Rampart builds (no monkeypatching of a running instance). */
export interface Decorators {
  service?(service: ServiceClient): ServiceClient;
  store?(store: RequestStore, role: 'web' | 'worker'): RequestStore;
  queues?(queues: Queues, role: 'web' | 'worker'): Queues;
}

export interface Built {
  config: Config;
  log: Logger;
  now: () => number;
  decorate: Decorators;
  metrics: Metrics;
  /** The fail-fast connection of request handling. */
  redis: RedisClient;
  service: ServiceClient;
  sandbox: boolean;
  slackClient: WebClient;
  audit: AuditWebhook | undefined;
  /** Every state change, from either connection's store: counted, and queued for the audit webhook. */
  counted: ChangeListener;
  /** SCREENING_URL's client, one per process (its 8-at-a-time bound is the process's). */
  screeningService: ScreeningService | undefined;
}
