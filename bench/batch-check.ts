/**
 * Part 5: checking a 1,000-row batch file, without service calls (the wallet's facts
 * come from an in-memory stand-in), against the real registry and velocity ledger on Redis.
 * Target: p50 ≤ 200 ms. Beside it, the same file through csv-parse alone: the floor.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { Redis } from 'ioredis';
import { type CheckBatchDeps, checkBatch } from '../src/app/check-batch.js';
import { loadConfig } from '../src/config.js';
import { ControlStore } from '../src/store/controls.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { Registry } from '../src/store/registry.js';
import { RequestStore } from '../src/store/requests.js';
import { type Summary, summarize } from './stats.js';

export const BATCH_ROWS = 1_000;
export const BATCH_TARGET_P50_MS = 200;

export interface BatchCheckReport {
  rows: number;
  transfers: Summary;
  offramps: Summary;
  csvParseOnly: Summary;
  met: boolean;
}

// Mixed-case EVM addresses: every row pays for an EIP-55 checksum, the slowest address check.
const RECEIVERS = ['0x99ED2e97162533BA814aF8092b93b9a3090DEdcF', '0x52908400098527886E0F7030069857D2E4169EE7'];

const transfersFile = (n: number) =>
  new TextEncoder().encode(
    `receiver,amount,reference\n${Array.from({ length: n }, (_, i) => `${RECEIVERS[i % 2]},${(i % 97) + 1}.25,inv ${i}`).join('\n')}\n`,
  );
const offrampsFile = (n: number) =>
  new TextEncoder().encode(
    `beneficiary,amount,reference\n${Array.from({ length: n }, (_, i) => `${i % 2 ? `ben_${i % 50}` : `Vendor ${i % 50}`},${(i % 97) + 1}.25,inv ${i}`).join('\n')}\n`,
  );

async function time(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** `prepare`: runs on the fresh store before the timings (the screening part loads a list there). */
export async function measureBatchCheck(
  redisUrl: string,
  runs: number,
  progress: (line: string) => void,
  prepare?: (store: RequestStore) => Promise<void>,
): Promise<BatchCheckReport> {
  const prefix = `bench-batch-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl);
  try {
    const registry = new Registry(redis, prefix);
    for (let i = 0; i < 50; i++)
      await registry.addBeneficiary({
        id: `ben_${i}`,
        label: `Vendor ${i}`,
        identityId: 'idn_1',
        identityName: 'Vendor',
        bankName: 'GTBank',
        accountMasked: '••••6789',
        holderName: 'VENDOR',
        createdBy: 'U1',
        approvedBy: 'U2',
        createdAt: 1,
        requestId: 'R-1',
      });
    const deps: CheckBatchDeps = {
      config: loadConfig({ NODE_ENV: 'test', WALLETS: 'ops=wal_ops', VELOCITY_LIMITS: 'ops:USDC=100000000/24h' }),
      service: {
        getWallet: async () => ({
          is_active: true,
          transfer: true,
          offramp: true,
          address: { evm: '0xabc', svm: 'So1' },
        }),
        getBalances: async () => [{ id: 'base:usdc', available: 10_000_000 }],
      } as unknown as CheckBatchDeps['service'],
      registry,
      store: new RequestStore(redis, prefix),
      controls: new ControlStore(redis, prefix),
      now: Date.now,
    };
    await prepare?.(deps.store);
    const check = async (kind: 'transfers' | 'offramps', bytes: Uint8Array) => {
      const out = await checkBatch(deps, { kind, wallet: 'ops', asset: 'base:usdc', bytes });
      if (out.kind !== 'checked' || out.rows.length !== BATCH_ROWS)
        throw new Error(`bench file not checked: ${out.kind}`);
    };
    const transfers = transfersFile(BATCH_ROWS);
    const offramps = offrampsFile(BATCH_ROWS);
    progress(`part 5: checking a ${BATCH_ROWS}-row transfers and offramps file, ${runs} times each`);
    await time(3, () => check('transfers', transfers)); // warm-up
    const t = await time(runs, () => check('transfers', transfers));
    const o = await time(runs, () => check('offramps', offramps));
    const floor = await time(runs, async () => parse(new TextDecoder().decode(transfers), { bom: true }));
    const report = {
      rows: BATCH_ROWS,
      transfers: summarize(t),
      offramps: summarize(o),
      csvParseOnly: summarize(floor),
    };
    return {
      ...report,
      met: report.transfers.p50 <= BATCH_TARGET_P50_MS && report.offramps.p50 <= BATCH_TARGET_P50_MS,
    };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  }
}

export const batchCheckLines = (b: BatchCheckReport): string[] => [
  `Part 5: checking a ${b.rows}-row batch file without service calls (registry and velocity on Redis), ms`,
  `transfers p50 ${b.transfers.p50.toFixed(1)}  p95 ${b.transfers.p95.toFixed(1)}  max ${b.transfers.max.toFixed(1)}`,
  `offramps  p50 ${b.offramps.p50.toFixed(1)}  p95 ${b.offramps.p95.toFixed(1)}  max ${b.offramps.max.toFixed(1)}`,
  `csv-parse alone (floor) p50 ${b.csvParseOnly.p50.toFixed(1)}`,
  `Target: p50 ≤ ${BATCH_TARGET_P50_MS} ms: ${b.met ? 'met' : 'NOT met'}`,
  '',
];
