/**
 * Issue 18 §3: the app façade as a CLI command gets it — the same use cases as Slack, bound to
 * what the command's context opens. The service and the queues are opened on their first use, so
 * `rampart requests` still touches Redis alone (no sandbox note, no BullMQ connections).
 */
import { createApp, type RampartApp } from '../app/index.js';
import type { ApprovalJobs } from '../app/ports.js';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import type { Config } from '../config.js';
import { createLogger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { ControlStore } from '../store/controls.js';
import { PasskeyStore } from '../store/passkeys.js';
import type { RedisClient } from '../store/redis.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
import { StepUpTokens } from '../store/step-up-tokens.js';

/** What cli/context.ts opens for the façade, each when first asked. */
export interface CliOpeners {
  config: Config;
  redis(): Promise<RedisClient>;
  service(): Promise<ServiceClient>;
  queues(): Promise<ApprovalJobs>;
  notices(): PasskeyNotices | undefined;
}

type ServiceReads = Pick<ServiceClient, 'getBalances' | 'getWallet' | 'getIdentity'>;

const lazyService = (open: () => Promise<ServiceClient>): ServiceReads => ({
  getBalances: async (walletId) => (await open()).getBalances(walletId),
  getWallet: async (walletId) => (await open()).getWallet(walletId),
  getIdentity: async (identityId) => (await open()).getIdentity(identityId),
});

const lazyQueues = (open: () => Promise<ApprovalJobs>): ApprovalJobs => ({
  scheduleExpiry: async (requestId, delayMs) => (await open()).scheduleExpiry(requestId, delayMs),
  notify: async (job, once, delayMs) => (await open()).notify(job, once, delayMs),
  scheduleReminder: async (job, delayMs) => (await open()).scheduleReminder(job, delayMs),
  enqueueApproved: async (requestId) => (await open()).enqueueApproved(requestId),
  releaseHeld: async (executionId, attempt) => (await open()).releaseHeld(executionId, attempt),
  enqueueTry: async (executionId, attempt, delayMs) => (await open()).enqueueTry(executionId, attempt, delayMs),
  isRunning: async (jobId) => (await open()).isRunning(jobId),
});

/** Opens Redis now (every use case reads it); the service, the queues and Slack when first asked. */
export async function cliApp(open: CliOpeners): Promise<RampartApp> {
  const { config } = open;
  const redis = await open.redis();
  const prefix = config.redis.prefix;
  const queues = lazyQueues(() => open.queues());
  return createApp({
    config,
    store: new RequestStore(redis, prefix),
    registry: new Registry(redis, prefix),
    controls: new ControlStore(redis, prefix),
    service: lazyService(() => open.service()),
    queues,
    // A command reports failures itself, one line each.
    log: createLogger({ level: 'silent' }),
    now: Date.now,
    cli: {
      jobs: queues,
      // Issue 19: the CLI cannot read Slack user groups, so only approvers listed by id.
      approvers: { isApprover: async (u) => config.approvers.includes(u) },
      apiKeys: new ApiKeyStore(redis, prefix),
      passkeys: new PasskeyStore(redis, prefix),
      stepUpTokens: new StepUpTokens(redis, prefix),
      notices: () => open.notices(),
    },
  });
}
