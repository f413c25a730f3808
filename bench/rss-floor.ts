/**
 * The peak-RSS floor, run as its own process: a bare Bolt app and BullMQ doing
 * Rampart's /rate work the way the stack is meant to be used — the command acks and queues one
 * job; a BullMQ worker makes the same service call (GET /rate/onramp) and answers the response
 * URL. Configured by the environment bench/rss.ts sets; compiled with Rampart's sources, run by
 * plain node (no tsx in either process being measured).
 */
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { z } from 'zod';

const env = z
  .object({
    PORT: z.coerce.number().int(),
    REDIS_URL: z.string(),
    REDIS_PREFIX: z.string(),
    SLACK_SIGNING_SECRET: z.string(),
    SLACK_BOT_TOKEN: z.string(),
    SLACK_API_URL: z.string(),
    SERVICE_BASE_URL: z.string(),
    SERVICE_API_KEY: z.string(),
  })
  .parse(process.env);

const job = z.object({ responseUrl: z.string() });
const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
const opts = { connection, prefix: `${env.REDIS_PREFIX}:floor` };
const queue = new Queue('rate', opts);
const rateUrl = new URL('/rate/onramp?currency=ngn', env.SERVICE_BASE_URL);

const receiver = new HTTPReceiver({
  signingSecret: env.SLACK_SIGNING_SECRET,
  endpoints: '/slack/events',
  processBeforeResponse: false,
  logLevel: LogLevel.ERROR,
});
const app = new App({
  token: env.SLACK_BOT_TOKEN,
  botId: 'B0BENCHBARE',
  botUserId: 'U0BENCHBARE',
  receiver,
  tokenVerificationEnabled: false,
  clientOptions: { slackApiUrl: env.SLACK_API_URL, retryConfig: { retries: 0 } },
  logLevel: LogLevel.ERROR,
});
app.command('/rate', async ({ ack, command }) => {
  await ack();
  await queue.add('rate', { responseUrl: command.response_url }, { removeOnComplete: true, removeOnFail: true });
});

const worker = new Worker(
  'rate',
  async (j) => {
    const { responseUrl } = job.parse(j.data);
    const res = await request(rateUrl, {
      headers: { accept: 'application/json', 'x-service-key': env.SERVICE_API_KEY },
    });
    const answer = (await res.body.json()) as { data?: { rate?: number } };
    await request(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', text: `NGN onramp rate: ${answer.data?.rate ?? '?'}` }),
    }).then((r) => r.body.dump());
  },
  { ...opts, concurrency: 50 },
);

await worker.waitUntilReady();
await app.start({ port: env.PORT, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void Promise.all([app.stop(), worker.close(), queue.close()]).finally(() => process.exit(0));
});
