/**
 * Part 3 (issue 14): `rampart audit export` of 100,000 requests stays under a fixed memory bound.
 * Seeds the requests with the app's own store under a bench prefix, exports them as JSON Lines
 * into a sink that only counts bytes, and samples the heap while it runs.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { exportAudit } from '../src/app/audit-export.js';
import { callHash, type SealedRequest, type ServiceCall } from '../src/domain/request.js';
import { deleteKeysWithPrefix } from '../src/store/delete-prefix.js';
import { RequestStore } from '../src/store/requests.js';

export const AUDIT_REQUESTS = 100_000;
/** Heap growth allowed during the export: far below what 100,000 records held at once would take. */
export const AUDIT_HEAP_BOUND_MB = 64;

export interface AuditReport {
  requests: number;
  events: number;
  megabytes: number;
  seedSeconds: number;
  exportSeconds: number;
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
          const frozen: SealedRequest = {
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
          await store.create(frozen);
        }),
      );
    }
    const seedSeconds = (performance.now() - seeded) / 1000;
    progress(`part 3: exporting ${n} requests as JSON Lines`);
    const before = process.memoryUsage().heapUsed;
    let peak = before;
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
        },
      },
      { since: 0, until: Number.MAX_SAFE_INTEGER, format: 'jsonl' },
    );
    clearInterval(sampler);
    const heapGrowthMb = (peak - before) / 2 ** 20;
    return {
      requests: result.requests,
      events: result.events,
      megabytes: bytes / 2 ** 20,
      seedSeconds,
      exportSeconds: (performance.now() - began) / 1000,
      heapGrowthMb,
      boundMb: AUDIT_HEAP_BOUND_MB,
      met: result.requests === n && heapGrowthMb < AUDIT_HEAP_BOUND_MB,
    };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  }
}

export const auditLines = (a: AuditReport): string[] => [
  `Part 3: audit export of ${a.requests} requests (${a.events} events, ${a.megabytes.toFixed(1)} MB of JSON Lines)`,
  `seeded in ${a.seedSeconds.toFixed(1)} s; exported in ${a.exportSeconds.toFixed(1)} s (${(a.requests / a.exportSeconds).toFixed(0)} requests/s)`,
  `heap growth at peak ${a.heapGrowthMb.toFixed(1)} MB; bound ${a.boundMb} MB: ${a.met ? 'met' : 'NOT met'}`,
  '',
];
