/**
 * Issue 18 §3: the app façade as a CLI command gets it — the same use cases as Slack, bound to
 * what the command's context opens. The service and the queues are opened on their first use, so
 * `rampart requests` still touches Redis alone (no sandbox note, no BullMQ connections).
 */
import { createApp, type RampartApp } from '../app/index.js';
import type { AnnounceJobs } from '../app/post-request.js';
import { createLogger } from '../log.js';
import type { ServiceClient } from '../service/client.js';
import type { Context } from './context.js';

type ServiceReads = Pick<ServiceClient, 'getBalances' | 'getWallet' | 'getIdentity'>;

const lazyService = (open: () => Promise<ServiceClient>): ServiceReads => ({
  getBalances: async (walletId) => (await open()).getBalances(walletId),
  getWallet: async (walletId) => (await open()).getWallet(walletId),
  getIdentity: async (identityId) => (await open()).getIdentity(identityId),
});

const lazyQueues = (open: () => Promise<AnnounceJobs>): AnnounceJobs => ({
  scheduleExpiry: async (requestId, delayMs) => (await open()).scheduleExpiry(requestId, delayMs),
  notify: async (job, once, delayMs) => (await open()).notify(job, once, delayMs),
  scheduleReminder: async (job, delayMs) => (await open()).scheduleReminder(job, delayMs),
});

/** Opens Redis now (every use case reads it); the service and the queues when first asked. */
export async function cliApp(ctx: Omit<Context, 'app'>): Promise<RampartApp> {
  return createApp({
    config: ctx.config,
    store: await ctx.store(),
    registry: await ctx.registry(),
    controls: await ctx.controls(),
    service: lazyService(() => ctx.service()),
    queues: lazyQueues(() => ctx.queues()),
    // A command reports failures itself, one line each.
    log: createLogger({ level: 'silent' }),
    now: Date.now,
  });
}
