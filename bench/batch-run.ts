import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { approve } from '../src/app/decide.js';
import { ServiceClient } from '../src/service/client.js';
import { rowPathCounts, storeBatch, transfer } from './batch-row-path.js';
import { PEOPLE, startWorld, type World } from './world.js';

export const ROWS_PER_S_GOAL = 50;
export const ROUND_TRIPS_GOAL = 4;
export const RSS_GOAL_MIB = 30;

export interface BatchRunReport {
  rows: number;
  rowsPerSecond: number;
  bareBullmqPerSecond: number;
  commandsPerRow: number;
  roundTripsPerRow: number;
  /** Commands per row by name (EVALSHA, HGETALL, …). */
  commandsByName: Record<string, number>;
  rssRows: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  heapBeforeMiB: number;
  heapAfterMiB: number;
}

async function runToDone(world: World, id: string): Promise<number> {
  const started = performance.now();
  const r = await approve(world.rampart.deps, id, PEOPLE.approver);
  if (r.kind !== 'approved') throw new Error(`bench batch not approved: ${r.kind}`);
  for (;;) {
    const record = await world.rampart.deps.store.get(id);
    if (record?.approvalState === 'done') return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same call, chained by bare BullMQ jobs: each job calls /transfer and queues the next. */
async function bareChain(world: World, n: number): Promise<number> {
  const connection = new Redis(world.redisUrl, { maxRetriesPerRequest: null });
  const opts = { connection, prefix: `${world.prefix}:barechain` };
  const service = new ServiceClient({ baseUrl: world.sandbox.url, apiKey: 'bench-service-key' });
  const queue = new Queue('chain', opts);
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const worker = new Worker(
    'chain',
    async (job) => {
      const i = Number(job.data.i);
      await service.transfer(transfer(0.01).body as never);
      if (i + 1 < n) await queue.add('row', { i: i + 1 }, { jobId: `row-${i + 1}`, removeOnComplete: true });
      else finish();
    },
    { ...opts, concurrency: 4 },
  );
  try {
    await worker.waitUntilReady();
    const started = performance.now();
    await queue.add('row', { i: 0 }, { jobId: 'row-0', removeOnComplete: true });
    await done;
    return performance.now() - started;
  } finally {
    await worker.close();
    await queue.close();
    await connection.quit();
  }
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;
const heapMiB = () => process.memoryUsage().heapUsed / 2 ** 20;

export async function measureBatchRun(
  redisUrl: string,
  rows: number,
  rssRows: number,
  progress: (line: string) => void,
): Promise<BatchRunReport> {
  const world = await startWorld(redisUrl, undefined, { BATCH_RATE: 'off' });
  try {
    progress(`part 6: a ${rows}-row batch at BATCH_RATE=off, then a bare BullMQ chain of the same call`);
    const ms = await runToDone(world, await storeBatch(world, rows));
    const bare = await bareChain(world, rows);
    progress('part 6: Redis commands on the row path, 50 rows');
    const perRow = await rowPathCounts(world, 50);
    progress(`part 6: RSS around a ${rssRows}-row batch`);
    gc();
    const before = rssMiB();
    const heapBefore = heapMiB();
    await runToDone(world, await storeBatch(world, rssRows));
    gc();
    const after = rssMiB();
    const heapAfter = heapMiB();
    return {
      rows,
      rowsPerSecond: rows / (ms / 1000),
      bareBullmqPerSecond: rows / (bare / 1000),
      commandsPerRow: perRow.commands,
      roundTripsPerRow: perRow.roundTrips,
      commandsByName: perRow.byName,
      rssRows,
      rssBeforeMiB: before,
      rssAfterMiB: after,
      heapBeforeMiB: heapBefore,
      heapAfterMiB: heapAfter,
    };
  } finally {
    await world.close();
  }
}

export const batchRunLines = (b: BatchRunReport): string[] => [
  `Part 6: a batch at BATCH_RATE=off against the sandbox`,
  `rows/s (${b.rows} rows, serial) ${b.rowsPerSecond.toFixed(1)}  beside a bare BullMQ chain of the same call ${b.bareBullmqPerSecond.toFixed(1)}  goal ≥ ${ROWS_PER_S_GOAL}: ${b.rowsPerSecond >= ROWS_PER_S_GOAL ? 'met' : 'NOT met'}`,
  `Redis sequential round trips per row on its path (start, call, finish, next try) ${b.roundTripsPerRow.toFixed(1)}  goal ≤ ${ROUND_TRIPS_GOAL}: ${b.roundTripsPerRow <= ROUND_TRIPS_GOAL ? 'met' : 'NOT met'}  (${b.commandsPerRow.toFixed(1)} commands: ${Object.entries(
    b.commandsByName,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`,
  `RSS before ${b.rssBeforeMiB.toFixed(1)} MiB, after a ${b.rssRows}-row batch ${b.rssAfterMiB.toFixed(1)} MiB (+${(b.rssAfterMiB - b.rssBeforeMiB).toFixed(1)})  goal ≤ +${RSS_GOAL_MIB}: ${b.rssAfterMiB - b.rssBeforeMiB <= RSS_GOAL_MIB ? 'met' : 'NOT met'}`,
  `V8 heap used before ${b.heapBeforeMiB.toFixed(1)} MiB, after ${b.heapAfterMiB.toFixed(1)} MiB (+${(b.heapAfterMiB - b.heapBeforeMiB).toFixed(1)}); this process also hosts the sandbox and the fake Slack`,
  '',
];
