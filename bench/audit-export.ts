/**
 * Part 3: `rampart audit export` of 100,000 requests stays under a fixed memory bound.
 * Seeds the requests with the app's own store under a bench prefix, exports them as JSON Lines
 * into a sink that only counts bytes, and samples the heap while it runs: the live heap after a
 * collection every few pages (what the bound is about: nothing kept as the export goes on), and
 * the peak of heapUsed, which also counts garbage V8 has not collected yet and so moves with its
 * heuristics (54–277 MB in runs whose live heap grew 1.2 MB).
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Redis } from 'ioredis';
import { exportAudit } from '../src/app/audit-export.js';
import { callHash, type SealedRequest, type ServiceCall } from '../src/domain/request.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { RequestStore } from '../src/store/requests.js';

export const AUDIT_REQUESTS = 100_000;
/** Live heap growth allowed during the export: far below what 100,000 records held at once would take. */
export const AUDIT_HEAP_BOUND_MB = 64;
/** Pages between two samples of the live heap. */
const LIVE_SAMPLE_EVERY = 10;

/** V8's collector, without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export interface AuditReport {
  requests: number;
  events: number;
  megabytes: number;
  seedSeconds: number;
  /** Time spent exporting, without the bench's own collections. */
  exportSeconds: number;
  /** Largest live heap (after a collection) above the one before the export. */
  liveGrowthMb: number;
  /** Largest heapUsed above the one before, garbage included. */
  heapGrowthMb: number;
  boundMb: number;
  met: boolean;
}

const call: ServiceCall = {
  kind: 'transfer',
  body: {
    wallet_id: 'wal_ops_7f3a',
    amount: 25,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    asset: 'base:usdc',
  },
};

export async function measureAuditExport(
  redisUrl: string,
  n: number,
  progress: (line: string) => void,
): Promise<AuditReport> {
  const prefix = `bench-audit-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl);
  try {
    const store = new RequestStore(redis, prefix);
    progress(`part 3: seeding ${n} requests`);
    const seeded = performance.now();
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < n; i += 1000) {
      await Promise.all(
        Array.from({ length: Math.min(1000, n - i) }, async (_, j) => {
          const createdAt = start + (i + j) * 1000;
          const sealed: SealedRequest = {
            id: `R-${1_000_000 + i + j}`,
            call,
            display: { walletAlias: 'ops', amountText: '25.00', assetCode: 'USDC', chain: 'base' },
            requester: 'U0REQUESTER',
            reason: `invoice ${i + j} for services rendered in the period`,
            createdAt,
            expiresAt: createdAt + 86_400_000,
            requiredApprovals: 1,
            rule: '1 approval',
            hash: callHash(call),
          };
          await store.create(sealed);
        }),
      );
    }
    const seedSeconds = (performance.now() - seeded) / 1000;
    progress(`part 3: exporting ${n} requests as JSON Lines`);
    const gc = collector();
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let live = before;
    let pages = 0;
    let collecting = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
    let bytes = 0;
    const began = performance.now();
    const result = await exportAudit(
      {
        store,
        write: async (chunk) => {
          bytes += Buffer.byteLength(chunk);
          peak = Math.max(peak, process.memoryUsage().heapUsed);
          pages += 1;
          if (pages % LIVE_SAMPLE_EVERY === 0) {
            const t = performance.now();
            gc();
            live = Math.max(live, process.memoryUsage().heapUsed);
            collecting += performance.now() - t;
          }
        },
      },
      { since: 0, until: Number.MAX_SAFE_INTEGER, format: 'jsonl' },
    );
    clearInterval(sampler);
    gc();
    live = Math.max(live, process.memoryUsage().heapUsed);
    const heapGrowthMb = (peak - before) / 2 ** 20;
    const liveGrowthMb = (live - before) / 2 ** 20;
    return {
      requests: result.requests,
      events: result.events,
      megabytes: bytes / 2 ** 20,
      seedSeconds,
      exportSeconds: (performance.now() - began - collecting) / 1000,
      liveGrowthMb,
      heapGrowthMb,
      boundMb: AUDIT_HEAP_BOUND_MB,
      met: result.requests === n && liveGrowthMb < AUDIT_HEAP_BOUND_MB,
    };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  }
}

export const auditLines = (a: AuditReport): string[] => [
  `Part 3: audit export of ${a.requests} requests (${a.events} events, ${a.megabytes.toFixed(1)} MB of JSON Lines)`,
  `seeded in ${a.seedSeconds.toFixed(1)} s; exported in ${a.exportSeconds.toFixed(1)} s (${(a.requests / a.exportSeconds).toFixed(0)} requests/s)`,
  `live heap growth (after a collection, every ${LIVE_SAMPLE_EVERY} pages) ${a.liveGrowthMb.toFixed(1)} MB; bound ${a.boundMb} MB: ${a.met ? 'met' : 'NOT met'}`,
  `heapUsed at its peak, uncollected garbage included: +${a.heapGrowthMb.toFixed(1)} MB`,
  '',
];
