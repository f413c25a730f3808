/**
 * Screening: loading a 20,000-address list (pipelined SADD into the next key, then the swap
 * script), and checking a 1,000-row batch file with that list loaded (one SMISMEMBER for every
 * row, beside the velocity read). Targets: load ≤ 2 s; the batch check p50 ≤ 250 ms.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { readPlainList, type ScreeningList } from '../src/domain/screening-list.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { ScreeningStore } from '../src/store/screening.js';
import { StoreKeys } from '../src/store/store-keys.js';
import { type BatchCheckReport, measureBatchCheck } from './batch-check.js';
import { type Summary, summarize } from './stats.js';

export const LIST_SIZE = 20_000;
export const LOAD_TARGET_MS = 2_000;
export const CHECK_TARGET_P50_MS = 250;

export interface ScreeningReport {
  addresses: number;
  load: Summary;
  check: BatchCheckReport;
  met: boolean;
}

function list(published: string, salt: number): ScreeningList {
  const lines = Array.from(
    { length: LIST_SIZE },
    (_, i) => `0x${(salt * LIST_SIZE + i).toString(16).padStart(40, '0')}`,
  );
  const read = readPlainList(new TextEncoder().encode(`# published: ${published}\n${lines.join('\n')}\n`), published);
  if (!read.ok) throw new Error(read.problem);
  return read.list;
}

export async function measureScreening(redisUrl: string, progress: (line: string) => void): Promise<ScreeningReport> {
  const prefix = `bench-screening-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl);
  try {
    const store = new ScreeningStore(redis, new StoreKeys(prefix));
    progress(`screening: loading a ${LIST_SIZE}-address list 5 times (each replacing the last, removals accepted)`);
    const samples: number[] = [];
    for (let run = 0; run < 5; run++) {
      const l = list(`2026-11-${String(run + 10)}`, run);
      const started = performance.now();
      const r = await store.load(l, { by: 'bench', source: 'bench', now: Date.now(), acceptRemovals: true });
      samples.push(performance.now() - started);
      if (r.kind !== 'loaded') throw new Error(`bench list not loaded: ${r.kind}`);
    }
    const check = await measureBatchCheck(redisUrl, 20, progress, async (s) => {
      await s.screening.load(list('2026-11-27', 9), {
        by: 'bench',
        source: 'bench',
        now: Date.now(),
        acceptRemovals: true,
      });
    });
    const load = summarize(samples);
    return {
      addresses: LIST_SIZE,
      load,
      check,
      met: load.max <= LOAD_TARGET_MS && check.transfers.p50 <= CHECK_TARGET_P50_MS,
    };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  }
}

export const screeningLines = (s: ScreeningReport): string[] => [
  `Screening: loading a ${s.addresses}-address list, ms: p50 ${s.load.p50.toFixed(0)}  max ${s.load.max.toFixed(0)} (target ≤ ${LOAD_TARGET_MS})`,
  `checking a ${s.check.rows}-row transfers file with the list loaded, ms: p50 ${s.check.transfers.p50.toFixed(1)}  p95 ${s.check.transfers.p95.toFixed(1)} (target p50 ≤ ${CHECK_TARGET_P50_MS})`,
  `Targets: ${s.met ? 'met' : 'NOT met'}`,
  '',
];
