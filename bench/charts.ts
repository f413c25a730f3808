/**
 * Chart bench rows, part `charts` of `npm run bench` (or `npx tsx bench/charts.ts [redis url]`):
 * App Home built from stored facts (p99 ≤ 50 ms), a 30-day chart drawn in the chart thread
 * (warm p99 ≤ 300 ms, cold beside it), the RSS of a web process that drew no chart against the
 * same build with the chart libraries blocked (within 5 MiB), and a worker's RSS after 100 charts
 * and after the chart thread's idle exit against before them (within 40 MiB). Child processes for
 * the RSS and drawing rows.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { homeView } from '../src/adapters/slack/blocks/home.js';
import { buildDashboard } from '../src/app/dashboard.js';
import { loadConfig } from '../src/config.js';
import { callHash, type SealedRequest, type ServiceCall } from '../src/domain/request.js';
import { createLogger } from '../src/log.js';
import { BalanceCache } from '../src/store/balance-cache.js';
import { BalanceHistory } from '../src/store/balance-history.js';
import { ControlStore } from '../src/store/controls.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { RequestStore } from '../src/store/requests.js';
import { ms, summarize } from './stats.js';

const run = promisify(execFile);
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
    const sealed: SealedRequest = {
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
    await store.create(sealed);
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
      freeze: d.freeze,
      dashboard: { data: d, links: new Map(), now: Date.now() },
    });
    samples.push(performance.now() - t);
  }
  const s = summarize(samples.slice(1));
  return { p50: s.p50, p99: s.p99, first: samples[0] ?? 0 };
}

const child = async (args: string[]) =>
  JSON.parse(
    (await run(process.execPath, ['--expose-gc', '--import', 'tsx', ...args], { maxBuffer: 1 << 20 })).stdout
      .trim()
      .split('\n')
      .at(-1) ?? '{}',
  ) as Record<string, number | number[]>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

async function webRss(redisUrl: string): Promise<{ drew: number; blocked: number }> {
  const drew: number[] = [];
  const blocked: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    drew.push(Number((await child(['bench/chart-rss-child.ts', 'web', redisUrl])).rss ?? 0));
    blocked.push(
      Number(
        (await child(['--import', './bench/chart-block.mjs', 'bench/chart-rss-child.ts', 'web', redisUrl])).rss ?? 0,
      ),
    );
  }
  return { drew: median(drew), blocked: median(blocked) };
}

export interface ChartsReport {
  home: { p50: number; p99: number; first: number };
  web: { drew: number; blocked: number };
  worker: { before: number; afterFirst: number; after: number; afterIdle: number; cold: number; warmP99: number };
}

export async function measureCharts(redisUrl: string, progress: (text: string) => void): Promise<ChartsReport> {
  const prefix = `bench-charts-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl);
  try {
    progress('charts: App Home builds');
    const home = await homeBuild(redis, prefix);
    progress('charts: web RSS, with and without the chart libraries');
    const web = await webRss(redisUrl);
    progress('charts: a worker drawing 100 charts');
    const w = await child(['bench/chart-rss-child.ts', 'worker']);
    const warm = (w.warm ?? []) as number[];
    const worker = {
      before: Number(w.before ?? 0),
      afterFirst: Number(w.afterFirst ?? 0),
      after: Number(w.after ?? 0),
      afterIdle: Number(w.afterIdle ?? 0),
      cold: Number(w.cold ?? 0),
      warmP99: summarize(warm).p99,
    };
    return { home, web, worker };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  }
}

const mib = (bytes: number) => bytes / MiB;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

export function chartLines(r: ChartsReport): string[] {
  const webDiff = Math.abs(mib(r.web.drew - r.web.blocked));
  const grown = mib(r.worker.after - r.worker.before);
  const afterIdle = mib(r.worker.afterIdle - r.worker.before);
  const rows: [string, string, string, boolean][] = [
    [
      'App Home build (stored facts), p50 / p99',
      `${ms(r.home.p50)} / ${ms(r.home.p99)} ms (first ${ms(r.home.first)} ms)`,
      '≤ 50 ms p99',
      r.home.p99 <= 50,
    ],
    [
      '30-day chart PNG in the chart thread, warm p99 (cold: thread start + libraries)',
      `${ms(r.worker.warmP99)} ms (${ms(r.worker.cold)} ms)`,
      '≤ 300 ms warm',
      r.worker.warmP99 <= 300,
    ],
    [
      'web RSS: drew no chart vs libraries blocked',
      `${mib(r.web.drew).toFixed(1)} vs ${mib(r.web.blocked).toFixed(1)} MiB (Δ ${webDiff.toFixed(1)})`,
      '≤ 5 MiB',
      webDiff <= 5,
    ],
    [
      'worker RSS vs before any chart: after 100 charts (thread alive) / after its idle exit',
      `${signed(grown)} / ${signed(afterIdle)} MiB`,
      '≤ 40 MiB after the idle exit',
      afterIdle <= 40,
    ],
  ];
  return [
    'Charts: App Home, chart drawing and memory',
    ...rows.map(([what, value, target, met]) => `  ${met ? 'met ' : 'MISS'}  ${what}: ${value}  [${target}]`),
  ];
}

// Run alone: `npx tsx bench/charts.ts [redis url]`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await measureCharts(process.argv[2] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', () => {});
  process.stdout.write(`${chartLines(report).join('\n')}\n`);
}
