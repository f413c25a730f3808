/**
 * Part 10 of `npm run bench` (recurring payouts, docs/time.md): a series' due run from the job
 * waking to its execution's job starting on a worker, beside a bare BullMQ round trip (add →
 * worker starts the job) in the same run, with the Redis round trips the run's creation makes
 * before its execution is queued; and the V8 heap a worker holds with 1,000 live series (each
 * woken once for its notice, then waiting on its one delayed job).
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { bullPrefix, createQueues, type Queues } from '../src/adapters/jobs/queues.js';
import type { AppDeps } from '../src/app/deps.js';
import { executeOne } from '../src/app/execute-one.js';
import type { NotifyRequest } from '../src/app/ports.js';
import { sealRequest } from '../src/app/post-request.js';
import { runDue, type SeriesRunDeps } from '../src/app/series/run-due.js';
import { scheduleFirstRun } from '../src/app/series/schedule-first.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startSandbox } from '../src/sandbox/index.js';
import { ServiceClient } from '../src/service/client.js';
import { ControlStore } from '../src/store/controls.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { Registry } from '../src/store/registry.js';
import { RequestStore } from '../src/store/requests.js';
import { SeriesStore } from '../src/store/series.js';
import { sealedSeriesInput } from '../test/support/factories.js';
import { measureBareBullmq } from './bare-bullmq.js';
import { transfer } from './batch-row-path.js';
import { countingRedis } from './counting-redis.js';
import { type Summary, summarize } from './stats.js';

/** The budget: creating a run takes at most this many Redis round trips before it is queued. */
export const SERIES_ROUND_TRIPS_GOAL = 2;
/** 1,000 live series add at most this much to a worker's heap. */
export const SERIES_HEAP_GOAL_MIB = 5;

export interface SeriesRunReport {
  runs: number;
  /** Due → the run's execution job started on a worker. */
  rampart: Summary;
  bullmq: Summary;
  /** The wallet's balance read over HTTP, part of every run's creation. */
  balance: Summary;
  /** Redis round trips from the job's wake to the run queued (its read and its creation). */
  roundTrips: number;
  commandsByName: Record<string, number>;
  liveSeries: number;
  heapBeforeMiB: number;
  heapAfterMiB: number;
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const heapMiB = () => process.memoryUsage().heapUsed / 2 ** 20;
const APPROVER = 'U0APPROVER1';

export async function measureSeriesRuns(
  redisUrl: string,
  options: { warmup: number; measured: number; liveSeries: number },
  progress: (text: string) => void,
): Promise<SeriesRunReport> {
  const prefix = `bench-series-${randomUUID().slice(0, 8)}`;
  const counting = countingRedis(redisUrl);
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const log = createLogger({ level: 'silent' });
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKey: 'k' });
  const service = new ServiceClient({ baseUrl: sandbox.url, apiKey: 'k' });
  const store = new RequestStore(counting.redis, prefix);
  const controls = new ControlStore(counting.redis, prefix);
  const queues = createQueues(connection, prefix, log);
  const notified: NotifyRequest[] = [];
  let roundTripsAtQueue = 0;
  const jobs = {
    ...queues,
    notify: async (job: NotifyRequest) => void notified.push(job),
    async enqueueApproved(id: string) {
      roundTripsAtQueue = counting.tally.roundTrips;
      await queues.enqueueApproved(id);
    },
  } as Queues;
  const config = {
    ...loadConfig({ NODE_ENV: 'test', SCHEDULE_MIN_INTERVAL: '1m', MAX_OPEN_PER_REQUESTER: '10000' }),
    approvers: [APPROVER],
  };
  const deps: AppDeps = {
    config,
    service,
    store,
    queues: jobs,
    registry: new Registry(counting.redis, prefix),
    controls,
    approvers: { isApprover: async (u) => u === APPROVER },
    log,
    now: Date.now,
  };
  // The balance read before each run (HTTP to the loopback sandbox), timed apart.
  const balanceMs: number[] = [];
  const timedService = {
    getBalances: async (walletId: string) => {
      const before = performance.now();
      try {
        return await service.getBalances(walletId);
      } finally {
        balanceMs.push(performance.now() - before);
      }
    },
  };
  const runDeps: SeriesRunDeps = {
    ...deps,
    service: timedService,
    series: new SeriesStore(counting.redis, store.keys),
  };
  // One run at a time: the execute job that starts is the run just created. It then runs to its
  // end, as a worker would, so approved runs do not pile up in what the next run's checks read.
  let onStart: ((at: number) => void) | undefined;
  const execDeps = { service, store, registry: deps.registry, jobs, log, now: Date.now, workerName: 'bench' };
  const worker = new Worker(
    'execute',
    async (job) => {
      onStart?.(performance.now());
      await executeOne(execDeps, String(job.data.executionId));
    },
    { connection, prefix: bullPrefix(prefix), concurrency: 1 },
  );
  /** A live series of two runs a day apart, its first `firstIn` ms from now. */
  const liveSeries = async (firstIn: number): Promise<string> => {
    const first = Date.now() + firstIn;
    const s = await sealRequest(
      deps,
      sealedSeriesInput(
        (await store.allocate('S')).id,
        transfer(1.01),
        {
          every: { unit: 'days', n: 1 },
          at: undefined,
          zone: 'UTC',
          ends: { after: 2 },
          runs: [first, first + 86_400_000],
        },
        { reason: 'bench series' },
      ),
    );
    if (s.kind !== 'created') throw new Error(`bench series not created: ${JSON.stringify(s)}`);
    await store.castVote(s.sealed.id, APPROVER);
    return s.sealed.id;
  };
  try {
    await worker.waitUntilReady();
    progress(`part 10: ${options.warmup + options.measured} series runs, due → execution job started`);
    const samples: number[] = [];
    const trips: number[] = [];
    let byName: Record<string, number> = {};
    for (let i = 0; i < options.warmup + options.measured; i++) {
      const id = await liveSeries(-1);
      // What the wake for its notice did: the run's id is ready on the series.
      await runDeps.series.claimNotice(id, 1);
      counting.reset();
      const before = performance.now();
      const start = new Promise<number>((resolve) => {
        onStart = resolve;
      });
      const r = await runDue(runDeps, id);
      if (r.outcome !== 'created') throw new Error(`bench run not created: ${r.outcome}`);
      if (i === 0) byName = Object.fromEntries(counting.tally.byName);
      trips.push(roundTripsAtQueue);
      const at = await start;
      onStart = undefined;
      // The run's execution finishes before the next series is due (not timed).
      while ((await store.get(r.id))?.state === 'approved' || (await store.get(r.id))?.state === 'executing')
        await new Promise((resolve) => setTimeout(resolve, 5));
      if (i >= options.warmup) samples.push(at - before);
    }
    progress('part 10: bare BullMQ on the same Redis');
    const bullmq = summarize(await measureBareBullmq(redisUrl, prefix, options));
    progress(`part 10: a worker's heap with ${options.liveSeries} live series`);
    const seriesWorker = new Worker(
      'series',
      async (job) => {
        const r = await runDue(runDeps, String(job.data.seriesId));
        if (r.nextAt !== undefined)
          await jobs.scheduleSeriesRun(String(job.data.seriesId), r.nextAt, r.nextAt - Date.now());
      },
      { connection, prefix: bullPrefix(prefix), concurrency: 8 },
    );
    await seriesWorker.waitUntilReady();
    gc();
    const heapBefore = heapMiB();
    const ids: string[] = [];
    for (let i = 0; i < options.liveSeries; i++) {
      // Its first run an hour away: the notice (12 hours before) is due now, the run is not.
      const id = await liveSeries(3_600_000);
      await scheduleFirstRun(deps, id);
      ids.push(id);
    }
    while (notified.filter((n) => n.kind === 'run-notice').length < ids.length)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // Every series now waits on its one delayed job, for its first run.
    while ((await queues.series.getDelayedCount()) < ids.length)
      await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
    const heapAfter = heapMiB();
    await seriesWorker.close();
    return {
      runs: samples.length,
      rampart: summarize(samples),
      balance: summarize(balanceMs.slice(options.warmup, options.warmup + options.measured)),
      bullmq,
      roundTrips: Math.max(...trips),
      commandsByName: byName,
      liveSeries: ids.length,
      heapBeforeMiB: heapBefore,
      heapAfterMiB: heapAfter,
    };
  } finally {
    await worker.close();
    await queues.close();
    await service.close();
    await sandbox.close();
    await deleteKeysWithPrefix(connection, prefix);
    await connection.quit();
    await counting.redis.quit();
  }
}

export function seriesRunLines(r: SeriesRunReport): string[] {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const added = r.heapAfterMiB - r.heapBeforeMiB;
  return [
    'Part 10: a series run, due → its execution job started (recurring payouts)',
    `  Rampart   p50 ${ms(r.rampart.p50)}  p95 ${ms(r.rampart.p95)}  max ${ms(r.rampart.max)}  (${r.runs} runs)`,
    `  of which the balance read (HTTP, loopback sandbox) p50 ${ms(r.balance.p50)}  p95 ${ms(r.balance.p95)}`,
    `  BullMQ    p50 ${ms(r.bullmq.p50)}  p95 ${ms(r.bullmq.p95)}  (bare add → worker start)`,
    `  Redis round trips before the run is queued: ${r.roundTrips} (goal ≤ ${SERIES_ROUND_TRIPS_GOAL}); commands ${JSON.stringify(r.commandsByName)}`,
    `  ${r.liveSeries} live series: V8 heap used ${r.heapBeforeMiB.toFixed(1)} → ${r.heapAfterMiB.toFixed(1)} MiB (+${added.toFixed(1)}, goal ≤ ${SERIES_HEAP_GOAL_MIB}); this process also hosts the sandbox`,
  ];
}
