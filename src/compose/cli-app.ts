/**
 * The app façade as a CLI command gets it — the same use cases as Slack, bound to
 * what compose/cli-role.ts opens. The service, the queues and Slack are opened on their first
 * use, so `rampart requests` still touches Redis alone (no sandbox note, no BullMQ connections).
 */
import type { ApproverDirectory } from '../app/deps.js';
import type { FacadeDeps } from '../app/facade-deps.js';
import { createApp, type RampartApp } from '../app/index.js';
import type { ApprovalJobs } from '../app/ports.js';
import type { PasskeyNotices } from '../app/step-up-deps.js';
import type { Config } from '../config.js';
import { createLogger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import { ApiKeyStore } from '../store/api-keys.js';
import { ControlStore, UnfreezeStore } from '../store/controls.js';
import { PasskeyStore } from '../store/passkeys.js';
import type { RedisClient } from '../store/redis.js';
import { Registry } from '../store/registry.js';
import { RequestStore } from '../store/requests.js';
import { SeriesStore } from '../store/series.js';
import { StepUpTokens } from '../store/step-up-tokens.js';

/** What cli/context.ts opens for the façade, each when first asked. */
export interface CliOpeners {
  config: Config;
  redis(): Promise<RedisClient>;
  service(): Promise<ServiceClient>;
  queues(): Promise<ApprovalJobs>;
  /** Builds the owner's passkey messages through Slack; undefined when no bot token is set. */
  notices: (() => PasskeyNotices) | undefined;
}

const lazyService = (open: () => Promise<ServiceClient>): FacadeDeps['service'] => ({
  getBalances: async (walletId) => (await open()).getBalances(walletId),
  getWallet: async (walletId) => (await open()).getWallet(walletId),
  getIdentity: async (identityId) => (await open()).getIdentity(identityId),
  getOnrampRate: async (currency) => (await open()).getOnrampRate(currency),
  lookupAccount: async (body) => (await open()).lookupAccount(body),
  createIdentity: async (body) => (await open()).createIdentity(body),
});

const lazyQueues = (open: () => Promise<ApprovalJobs>): ApprovalJobs => ({
  scheduleExpiry: async (requestId, delayMs) => (await open()).scheduleExpiry(requestId, delayMs),
  notify: async (job, once) => (await open()).notify(job, once),
  scheduleReminder: async (job, delayMs) => (await open()).scheduleReminder(job, delayMs),
  enqueueApproved: async (requestId) => (await open()).enqueueApproved(requestId),
  releaseHeld: async (executionId, attempt) => (await open()).releaseHeld(executionId, attempt),
  enqueueTry: async (executionId, attempt, delayMs) => (await open()).enqueueTry(executionId, attempt, delayMs),
  isRunning: async (jobId) => (await open()).isRunning(jobId),
  scheduleSeriesRun: async (seriesId, at, delayMs) => (await open()).scheduleSeriesRun(seriesId, at, delayMs),
});

/** Slack's client is built on the first message only (most commands send none). */
function lazyNotices(open: () => PasskeyNotices): PasskeyNotices {
  let built: PasskeyNotices | undefined;
  const notices = (): PasskeyNotices => {
    built ??= open();
    return built;
  };
  return {
    requested: (passkey) => notices().requested(passkey),
    added: (passkey) => notices().added(passkey),
    removed: (user, removed, by) => notices().removed(user, removed, by),
    decided: (passkey, card, decision) => notices().decided(passkey, card, decision),
  };
}

/** The CLI cannot read Slack user groups, so a person is in a list when named by id. */
const listed = (ids: readonly string[]): ApproverDirectory => ({ isApprover: async (user) => ids.includes(user) });

/** Opens Redis now (every use case reads it); the service, the queues and Slack when first asked. */
export async function cliApp(open: CliOpeners): Promise<RampartApp> {
  const { config } = open;
  const redis = await open.redis();
  const prefix = config.redis.prefix;
  const controls = new ControlStore(redis, prefix);
  const store = new RequestStore(redis, prefix);
  return createApp({
    config,
    store,
    series: new SeriesStore(redis, store.keys),
    registry: new Registry(redis, prefix),
    controls,
    unfreeze: new UnfreezeStore(redis, prefix, controls),
    passkeys: new PasskeyStore(redis, prefix),
    stepUpTokens: new StepUpTokens(redis, prefix),
    apiKeys: new ApiKeyStore(redis, prefix),
    ...(open.notices ? { notices: lazyNotices(open.notices) } : {}),
    approvers: listed(config.approvers),
    identityCreators: listed(config.identityCreators),
    service: lazyService(() => open.service()),
    queues: lazyQueues(() => open.queues()),
    // A command reports failures itself, one line each.
    log: createLogger({ level: 'silent' }),
    now: Date.now,
  });
}
