/**
 * Issue 18 §3: the app façade as a CLI command gets it — the same use cases as Slack, bound to
 * what the command's context opens. The service and the queues are opened on their first use, so
 * `rampart requests` still touches Redis alone (no sandbox note, no BullMQ connections).
 */
import type { ApproverDirectory } from '../app/deps.js';
import { createApp, type FacadeDeps, type RampartApp } from '../app/index.js';
import { createLogger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { Context } from './context.js';

const lazyService = (open: () => Promise<ServiceClient>): FacadeDeps['service'] => ({
  getBalances: async (walletId) => (await open()).getBalances(walletId),
  getWallet: async (walletId) => (await open()).getWallet(walletId),
  getIdentity: async (identityId) => (await open()).getIdentity(identityId),
  getOnrampRate: async (currency) => (await open()).getOnrampRate(currency),
  lookupAccount: async (body) => (await open()).lookupAccount(body),
  createIdentity: async (body) => (await open()).createIdentity(body),
});

const lazyQueues = (open: () => Promise<FacadeDeps['queues']>): FacadeDeps['queues'] => ({
  scheduleExpiry: async (requestId, delayMs) => (await open()).scheduleExpiry(requestId, delayMs),
  notify: async (job, once, delayMs) => (await open()).notify(job, once, delayMs),
  scheduleReminder: async (job, delayMs) => (await open()).scheduleReminder(job, delayMs),
  enqueueApproved: async (requestId) => (await open()).enqueueApproved(requestId),
  releaseHeld: async (executionId, attempt) => (await open()).releaseHeld(executionId, attempt),
  enqueueTry: async (executionId, attempt, delayMs) => (await open()).enqueueTry(executionId, attempt, delayMs),
  isRunning: async (jobId) => (await open()).isRunning(jobId),
});

/** The CLI cannot read Slack user groups: a person is in a list when named by id (as `rampart resolve --as`). */
const listed = (ids: readonly string[]): ApproverDirectory => ({ isApprover: async (user) => ids.includes(user) });

/** Opens Redis now (every use case reads it); the service and the queues when first asked. */
export async function cliApp(ctx: Omit<Context, 'app'>): Promise<RampartApp> {
  return createApp({
    config: ctx.config,
    store: await ctx.store(),
    registry: await ctx.registry(),
    controls: await ctx.controls(),
    unfreeze: await ctx.unfreeze(),
    ...(await ctx.passkeys()),
    approvers: listed(ctx.config.approvers),
    identityCreators: listed(ctx.config.identityCreators),
    service: lazyService(() => ctx.service()),
    queues: lazyQueues(() => ctx.queues()),
    // A command reports failures itself, one line each.
    log: createLogger({ level: 'silent' }),
    now: Date.now,
  });
}
