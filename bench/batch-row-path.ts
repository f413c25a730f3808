/**
 * Part 6: what one batch row sends to Redis on its own path — its
 * start script, the call, its finish script, the next row's try — counted on the connection it
 * runs on (bench/counting-redis.ts): commands, and sequential round trips (the goal's unit).
 */
import { randomUUID } from 'node:crypto';
import { createQueues } from '../src/adapters/jobs/queues.js';
import { checkFunding } from '../src/app/batch-funding.js';
import { executeOne } from '../src/app/execute-one.js';
import { sealRequest } from '../src/app/post-request.js';
import type { ServiceCall } from '../src/domain/request.js';
import { createLogger } from '../src/log.js';
import { ServiceClient } from '../src/service/client.js';
import { Registry } from '../src/store/registry.js';
import { RequestStore } from '../src/store/requests.js';
import { countingRedis } from './counting-redis.js';
import { PEOPLE, type World } from './world.js';

const RECEIVER = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
export const transfer = (amount: number): ServiceCall => ({
  kind: 'transfer',
  body: { wallet_id: 'wal_ops_7f3a', amount, receiver: RECEIVER, asset: 'base:usdc' },
});

/** A batch of `n` rows of 0.01, stored as submitBatch stores it (its facts too); returns its id. */
export async function storeBatch(world: World, n: number): Promise<string> {
  const deps = world.rampart.deps;
  const id = await deps.store.nextId('B');
  const calls = Array.from({ length: n }, () => transfer(0.01));
  await deps.store.batches.saveRows(
    id,
    calls.map((_, i) => ({ row: i + 2, destination: RECEIVER, amount: '0.01' })),
  );
  const s = await sealRequest(deps, {
    id,
    call: transfer(n / 100),
    calls,
    // A batch's facts as submitBatch seals them: its card and progress take the batch's paths.
    display: {
      chain: 'base',
      walletAlias: 'ops',
      assetCode: 'USDC',
      batch: {
        kind: 'transfers',
        fileName: 'bench.csv',
        rows: n,
        total: String(n / 100),
        largest: { row: 2, amount: '0.01' },
        availableNow: '1000000',
        availableAfter: String(1_000_000 - n / 100),
        fileFingerprint: randomUUID(),
        preview: [],
      },
    },
    requester: PEOPLE.requester,
    reason: 'bench',
    origin: undefined,
    required: 1,
    rule: '1 approval',
    stepUp: false,
    submission: `V${randomUUID()}`,
  });
  if (s.kind !== 'created') throw new Error(`bench batch not created: ${s.kind}`);
  return id;
}

/** Commands and sequential round trips the row path sends, per row, on a connection that counts them. */
export async function rowPathCounts(world: World, n: number): Promise<RowPathCounts> {
  const { redis, tally, reset } = countingRedis(world.redisUrl);
  const log = createLogger({ level: 'silent' });
  const prefix = world.rampart.deps.config.redis.prefix;
  const store = new RequestStore(redis, prefix);
  // Its own queue prefix: the running workers never take these tries.
  const jobs = createQueues(redis, `${prefix}:countedrows`, log);
  const id = await storeBatch(world, n);
  // Approved in the store alone: nothing is queued for the running workers.
  if ((await store.vote(id, PEOPLE.approver)) !== 'approved') throw new Error('bench batch not approved');
  // The funding check a batch passes when it takes its wallet's turn (not on the row's path).
  if ((await checkFunding(world.rampart.deps, id)) !== 'funded') throw new Error('bench batch not funded');
  const service = new ServiceClient({ baseUrl: world.sandbox.url, apiKey: 'bench-service-key' });
  const deps = { service, store, registry: new Registry(redis, prefix), jobs, log, now: Date.now, workerName: 'bench' };
  try {
    // Row 1 loads the scripts (EVALSHA's first NOSCRIPT): counted from row 2 on.
    await executeOne(deps, `${id}.1`, { jobId: 'bench-1' });
    reset();
    for (let i = 2; i < n; i++) await executeOne(deps, `${id}.${i}`, { jobId: `bench-${i}` });
    const rows = n - 2;
    const byName = Object.fromEntries([...tally.byName].map(([k, v]) => [k, Number((v / rows).toFixed(2))]));
    const counted = { commands: tally.commands / rows, roundTrips: tally.roundTrips / rows };
    // The last row ends the batch and hands its wallet's turn on: once per batch, not per row.
    await executeOne(deps, `${id}.${n}`, { jobId: `bench-${n}` });
    return { ...counted, byName };
  } finally {
    await jobs.close();
    await redis.quit();
  }
}

export interface RowPathCounts {
  commands: number;
  roundTrips: number;
  /** Commands per row by name. */
  byName: Record<string, number>;
}
