/** The scrape-time readings: open requests from the state indexes, jobs from BullMQ. */
import type { Queue } from 'bullmq';
import type { Backlog } from '../audit/webhook-backlog.js';
import type { RequestStore } from '../store/requests.js';
import { type MetricSources, OPEN_STATES, type OpenState } from './metrics.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'] as const;

export function metricSources(
  store: RequestStore,
  queues: readonly Queue[],
  now: () => number,
  auditBacklog?: () => Promise<Backlog>,
  idempotencyRecords?: () => Promise<Record<string, number>>,
): MetricSources {
  return {
    now,
    ...(auditBacklog ? { auditBacklog } : {}),
    ...(idempotencyRecords ? { idempotencyRecords } : {}),
    async open() {
      const counts = await Promise.all(OPEN_STATES.map((s) => store.stateCount(s)));
      return Object.fromEntries(OPEN_STATES.map((s, i) => [s, counts[i]])) as Record<
        OpenState,
        { count: number; oldestSince: number | undefined }
      >;
    },
    async queueJobs() {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts(...JOB_STATES)));
      return Object.fromEntries(queues.map((q, i) => [q.name, counts[i] ?? {}]));
    },
  };
}
