/**
 * Batch metrics: `rampart_batch_rows_total{kind,state}`, every batch row reaching a
 * final state, and `rampart_batches{state}`, the batches not yet final by state (read at scrape
 * time). The execution scripts tell the store's listener only when an approval's view changes,
 * not per row, so the row moves are counted here around the store's own methods (no change to
 * the scripts). The kind and the shape are read after the move and not awaited: nothing is added
 * to a row's path; an approval whose stored shape is not 'batch' is not counted.
 */
import { Counter, Gauge } from 'prom-client';
import { type ExecutionState, parseExecutionId } from '../domain/approval.js';
import type { Logger } from '../log.js';
import type { RedisClient } from '../redis-client.js';
import type { RequestStore } from '../store/requests.js';
import { StoreKeys } from '../store/store-keys.js';
import type { Metrics } from './metrics.js';

const FINAL: ReadonlySet<ExecutionState> = new Set(['succeeded', 'failed', 'unknown', 'cancelled']);
/** The batch states a gauge shows (final ones only grow: the counter tells those). */
export const OPEN_BATCH_STATES = ['pending', 'approved', 'running', 'paused', 'stopping'] as const;
const KINDS_KEPT = 256;

export interface BatchMetricSources {
  redis: RedisClient;
  prefix: string;
  log: Logger;
}

/** The counter, shared by every store of this Rampart instance (one registry). */
export function batchRowCounter(metrics: Metrics): Counter<'kind' | 'state'> {
  const existing = metrics.registry.getSingleMetric('rampart_batch_rows_total');
  if (existing) return existing as Counter<'kind' | 'state'>;
  return new Counter({
    name: 'rampart_batch_rows_total',
    help: 'Batch rows that reached a final state (succeeded, failed, unknown, cancelled), by kind.',
    labelNames: ['kind', 'state'] as const,
    registers: [metrics.registry],
  });
}

/** Counts every batch row this store moves to a final state. */
export function countBatchRows(store: RequestStore, metrics: Metrics, s: BatchMetricSources): void {
  const counter = batchRowCounter(metrics);
  const keys = new StoreKeys(s.prefix);
  // The kind of each recent batch, or '' for an approval that is not a batch.
  const kinds = new Map<string, string>();
  const inc = (kind: string, state: ExecutionState, n: number) => {
    if (kind) counter.inc({ kind, state }, n);
  };
  const count = (approvalId: string, state: ExecutionState, n: number) => {
    const known = kinds.get(approvalId);
    if (known !== undefined) return inc(known, state, n);
    s.redis
      .hmget(keys.approval(approvalId), 'kind', 'shape')
      .then(([kind, shape]) => {
        const k = shape !== 'batch' ? '' : kind === 'offramp' ? 'offramp' : 'transfer';
        if (kinds.size >= KINDS_KEPT) kinds.clear();
        kinds.set(approvalId, k);
        inc(k, state, n);
      })
      .catch((err: unknown) => s.log.warn({ err, requestId: approvalId }, 'a batch row was not counted'));
  };
  const ex = store.executions;
  const finish = ex.finish.bind(ex);
  ex.finish = async (...args) => {
    const moved = await finish(...args);
    const [id, , to] = args;
    const approvalId = parseExecutionId(id)?.approvalId;
    if (moved.ok && moved.shape === 'batch' && approvalId && FINAL.has(to)) count(approvalId, to, 1);
    return moved;
  };
  const cancelQueued = ex.cancelQueued.bind(ex);
  ex.cancelQueued = async (...args) => {
    const n = await cancelQueued(...args);
    if (n > 0) count(args[0], 'cancelled', n);
    return n;
  };
}

/** `rampart_batches{state}`: batches not yet final, by state, read from Redis at scrape time. */
export function registerBatchGauge(metrics: Metrics, store: RequestStore, s: BatchMetricSources): void {
  const keys = new StoreKeys(s.prefix);
  new Gauge({
    name: 'rampart_batches',
    help: 'Batches not yet final, by state: pending, approved, running, paused, stopping.',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    async collect() {
      const ids = await store.openIds();
      const pipeline = s.redis.pipeline();
      for (const id of ids) pipeline.hmget(keys.approval(id), 'state', 'shape');
      const states = ids.length > 0 ? ((await pipeline.exec()) ?? []) : [];
      const counts = new Map<string, number>(OPEN_BATCH_STATES.map((st) => [st, 0]));
      for (const [err, fields] of states) {
        const [state, shape] = (fields ?? []) as (string | null)[];
        if (!err && shape === 'batch' && typeof state === 'string' && counts.has(state))
          counts.set(state, (counts.get(state) ?? 0) + 1);
      }
      for (const [state, n] of counts) this.set({ state }, n);
    },
  });
}
