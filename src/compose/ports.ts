/**
 * The app's ports on one Redis connection (one dependency bag): built once per role,
 * on the fail-fast connection for request handling and on the patient one for the workers, and
 * handed whole to what that role starts.
 */

import { createQueues, type Queues } from '../adapters/jobs/queues.js';
import { SlackApproverDirectory } from '../adapters/slack/approvers.js';
import type { AppDeps } from '../app/deps.js';
import { countBatchRows } from '../metrics/batch-rows.js';
import { ControlStore } from '../store/controls.js';
import type { RedisClient } from '../store/redis.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
import type { Built } from './built.js';

/** AppDeps with the concrete queues and directory a role's adapters and workers also use. */
export type RolePorts = AppDeps & { queues: Queues; approvers: SlackApproverDirectory };

export interface BuiltPorts {
  deps: RolePorts;
  /** The store before the bench's and tests' decorator: metrics and the audit backlog read it. */
  undecorated: RequestStore;
}

/** A directory of Slack users and user groups (APPROVERS, IDENTITY_CREATORS, ESCALATE_TO). */
export const slackDirectory = (b: Built, who: readonly string[]) =>
  new SlackApproverDirectory(who, b.slackClient, b.config.approverCacheMs, b.now);

export function buildPorts(b: Built, redis: RedisClient, role: 'web' | 'worker'): BuiltPorts {
  const { config, log, now } = b;
  const prefix = config.redis.prefix;
  const undecorated = new RequestStore(redis, prefix, now, b.counted);
  // Batch rows by final state, counted around whichever store moved them.
  countBatchRows(undecorated, b.metrics, { redis, prefix, log });
  const queues = createQueues(redis, prefix, log);
  const deps: RolePorts = {
    config,
    service: b.service,
    store: b.decorate.store?.(undecorated, role) ?? undecorated,
    queues: b.decorate.queues?.(queues, role) ?? queues,
    registry: new Registry(redis, prefix),
    controls: new ControlStore(redis, prefix),
    approvers: slackDirectory(b, config.approvers),
    log,
    now,
    screeningService: b.screeningService,
  };
  return { deps, undecorated };
}
