/**
 * Chart bench child: one process whose RSS is read after a forced GC. `web`: a web-role
 * Rampart on the sandbox and a fake Slack, App Home opened 20 times (the dashboard, no chart
 * drawn). `worker`: RSS before and after drawing 100 30-day charts in the chart thread, and after the thread's
 * idle exit, then the cold and warm drawing times. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { SlackDriver, startFakeSlack } from '../devkit/index.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startRampart } from '../src/rampart.js';
import { startSandbox } from '../src/sandbox/index.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { thirtyDays } from './chart-fixture.js';

const mode = process.argv[2];
const redisUrl = process.argv[3] ?? 'redis://127.0.0.1:6379';
const gc = (globalThis as { gc?: () => void }).gc;

async function settledRss(): Promise<number> {
  for (let i = 0; i < 3; i += 1) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage().rss;
}

async function web(): Promise<void> {
  const prefix = `bench-rss-${randomUUID().slice(0, 8)}`;
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKey: 'k' });
  const fake = await startFakeSlack({
    botToken: 'xoxb-bench',
    people: [{ id: 'U0VIEWER', name: 'v', real_name: 'Viewer', tz: 'UTC' }],
  });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    ROLE: 'web',
    PORT: '0',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_SIGNING_SECRET: 'bench-secret',
    SLACK_API_URL: fake.apiUrl,
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_API_KEY: 'k',
    WALLETS: 'ops=wal_ops_7f3a,treasury=wal_treasury_91c2',
  });
  const rampart = await startRampart(config, createLogger({ level: 'silent' }));
  const driver = new SlackDriver({
    url: `http://127.0.0.1:${rampart.port}/slack/events`,
    signingSecret: 'bench-secret',
    fake,
  });
  for (let i = 0; i < 20; i += 1) {
    await driver.openHome('U0VIEWER');
    while (!fake.home('U0VIEWER')) await new Promise((r) => setTimeout(r, 10));
  }
  const rss = await settledRss();
  await rampart.close();
  await fake.close();
  await sandbox.close();
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
  process.stdout.write(`${JSON.stringify({ mode, rss })}\n`);
}

/** The chart thread ends after this long without a chart (30 s in production; shorter here). */
const IDLE_MS = 2_000;

async function worker(): Promise<void> {
  const before = await settledRss();
  const { PngRenderer } = await import('../src/charts/render-png.js');
  const renderer = new PngRenderer(IDLE_MS);
  await renderer.render(thirtyDays());
  const afterFirst = await settledRss();
  for (let i = 0; i < 100; i += 1) await renderer.render(thirtyDays());
  const after = await settledRss();
  while (renderer.running) await new Promise((r) => setTimeout(r, 100));
  const afterIdle = await settledRss();
  // Cold (thread start + libraries) and warm drawing times, in this process (≤ 300 ms).
  let t = performance.now();
  await renderer.render(thirtyDays());
  const cold = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    t = performance.now();
    await renderer.render(thirtyDays());
    warm.push(performance.now() - t);
  }
  await renderer.close();
  process.stdout.write(`${JSON.stringify({ mode, before, afterFirst, after, afterIdle, cold, warm })}\n`);
}

if (mode === 'web') await web();
else if (mode === 'worker') await worker();
else throw new Error('usage: chart-rss-child.ts web|worker [redis url]');
process.exit(0);
