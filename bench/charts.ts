/**
 * Issue 24 bench rows (`npx tsx bench/charts.ts [redis url]`): App Home built from stored facts
 * (p99 ≤ 50 ms), a 30-day chart drawn in the process (≤ 300 ms), the RSS of a web process that drew
 * no chart against the same build with the chart libraries blocked (within 5 MiB), and a worker's
 * RSS after 100 charts against before them (within 40 MiB). Child processes for the RSS rows.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { buildDashboard } from '../src/app/dashboard.js';
import { loadConfig } from '../src/config.js';
import { callHash, type SealedRequest, type ServiceCall } from '../src/domain/request.js';
import { createLogger } from '../src/log.js';
import { homeView } from '../src/slack/blocks/home.js';
import { BalanceCache } from '../src/store/balance-cache.js';
import { BalanceHistory } from '../src/store/balance-history.js';
import { ControlStore } from '../src/store/controls.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { RequestStore } from '../src/store/requests.js';
import { thirtyDays } from './chart-fixture.js';
import { ms, summarize } from './stats.js';

const run = promisify(execFile);
const redisUrl = process.argv[2] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const MiB = 1_048_576;
const WALLETS = [
  { alias: 'ops', id: 'wal_ops_7f3a' },
  { alias: 'treasury', id: 'wal_treasury_91c2' },
  { alias: 'payroll', id: 'wal_payroll_44d0' },
  { alias: 'legacy', id: 'wal_legacy_0b19' },
];

async function seed(redis: Redis, prefix: string): Promise<RequestStore> {
  const history = new BalanceHistory(redis, prefix);
  const now = Date.now();
  for (const w of WALLETS)
    for (let at = now - 30 * 86_400_000; at < now; at += 15 * 60_000)
      await history.record(w.id, { at, gap: false, available: { 'base:usdc': 1000 + (at % 997), 'bsc:cngn': 5e6 } });
  const store = new RequestStore(redis, prefix);
  for (let i = 0; i < 40; i += 1) {
    const call: ServiceCall = {
      kind: 'transfer',
      body: {
        wallet_id: 'wal_ops_7f3a',
        amount: 10 + i,
        receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
        asset: 'base:usdc',
      },
    };
    const id = await store.nextId();
    const frozen: SealedRequest = {
      id,
      call,
      display: { walletAlias: 'ops', chain: 'base' },
      requester: 'U0REQUESTER',
      reason: 'bench',
      createdAt: now - i * 60_000,
      expiresAt: now + 86_400_000,
      requiredApprovals: 1,
      rule: '1 approval',
      hash: callHash(call),
    };
    await store.create(frozen);
    if (i % 2 === 0) {
      await store.vote(id, 'U0APPROVER1');
      const started = await store.executions.start(id, 'bench');
      if (started.token) await store.executions.finish(id, started.token, 'succeeded', { hash: '0xabc' });
    }
  }
  return store;
}

async function homeBuild(redis: Redis, prefix: string): Promise<{ p50: number; p99: number; first: number }> {
  const store = await seed(redis, prefix);
  const config = loadConfig({
    NODE_ENV: 'test',
    VELOCITY_LIMITS: 'ops:USDC=50000/24h,*:CNGN=75000000/24h',
    WALLETS: WALLETS.map((w) => `${w.alias}=${w.id}`).join(','),
  });
  const deps = {
    service: { getBalances: async () => [] },
    store,
    controls: new ControlStore(redis, prefix),
    history: new BalanceHistory(redis, prefix),
    cache: new BalanceCache(redis, prefix),
    wallets: config.wallets,
    rules: config.controls.velocity,
    zone: 'UTC',
    now: Date.now,
    log: createLogger({ level: 'silent' }),
  };
  const samples: number[] = [];
  for (let i = 0; i < 300; i += 1) {
    const t = performance.now();
    const d = await buildDashboard(deps);
    homeView({
      pending: d.waiting,
      recent: [],
      sandbox: false,
      freeze: d.freeze,
      dashboard: { data: d, links: new Map(), now: Date.now() },
    });
    samples.push(performance.now() - t);
  }
  const s = summarize(samples.slice(1));
  return { p50: s.p50, p99: s.p99, first: samples[0] ?? 0 };
}

async function chartRender(): Promise<{ cold: number; p99: number }> {
  const t = performance.now();
  const { renderPng } = await import('../src/charts/render-png.js');
  await renderPng(thirtyDays());
  const cold = performance.now() - t;
  const samples: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    const s = performance.now();
    await renderPng(thirtyDays());
    samples.push(performance.now() - s);
  }
  return { cold, p99: summarize(samples).p99 };
}

const child = async (args: string[]) =>
  JSON.parse(
    (await run(process.execPath, ['--expose-gc', '--import', 'tsx', ...args], { maxBuffer: 1 << 20 })).stdout
      .trim()
      .split('\n')
      .at(-1) ?? '{}',
  ) as Record<string, number>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

async function webRss(): Promise<{ drew: number; blocked: number }> {
  const drew: number[] = [];
  const blocked: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    drew.push((await child(['bench/chart-rss-child.ts', 'web', redisUrl])).rss ?? 0);
    blocked.push(
      (await child(['--import', './bench/chart-block.mjs', 'bench/chart-rss-child.ts', 'web', redisUrl])).rss ?? 0,
    );
  }
  return { drew: median(drew), blocked: median(blocked) };
}

const prefix = `bench-charts-${randomUUID().slice(0, 8)}`;
const redis = new Redis(redisUrl);
try {
  const home = await homeBuild(redis, prefix);
  const chart = await chartRender();
  const web = await webRss();
  const worker = await child(['bench/chart-rss-child.ts', 'worker']);
  const webDiff = Math.abs(web.drew - web.blocked) / MiB;
  const workerGrowth = ((worker.after ?? 0) - (worker.before ?? 0)) / MiB;
  const workerAfterFirst = ((worker.after ?? 0) - (worker.afterFirst ?? 0)) / MiB;
  const rows = [
    [
      'App Home build (stored facts), p50 / p99',
      `${ms(home.p50)} / ${ms(home.p99)} ms (first ${ms(home.first)} ms)`,
      '≤ 50 ms p99',
      home.p99 <= 50,
    ],
    [
      '30-day chart PNG, warm p99 (cold incl. import)',
      `${ms(chart.p99)} ms (${ms(chart.cold)} ms)`,
      '≤ 300 ms',
      chart.p99 <= 300,
    ],
    [
      'web RSS: drew no chart vs libraries blocked',
      `${(web.drew / MiB).toFixed(1)} vs ${(web.blocked / MiB).toFixed(1)} MiB (Δ ${webDiff.toFixed(1)})`,
      '≤ 5 MiB',
      webDiff <= 5,
    ],
    [
      'worker RSS after 100 charts vs before any',
      `+${workerGrowth.toFixed(1)} MiB (+${workerAfterFirst.toFixed(1)} after the first)`,
      '≤ 40 MiB',
      workerGrowth <= 40,
    ],
  ] as const;
  for (const [what, value, target, met] of rows)
    process.stdout.write(`${met ? 'met ' : 'MISS'}  ${what}: ${value}  [${target}]\n`);
} finally {
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
}
