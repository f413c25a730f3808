/**
 * GET /healthz's body: this process's readiness plus what it can see of the rest —
 * the service as last seen, workers' heartbeats, queue depths, the freeze. Counts, states and
 * ages only: no ids, no people, no reasons, no settings (nothing secret or personal).
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis-client.js';
import {
  heartbeats,
  type OwnConnections,
  type Part,
  PROBE_BOUND_MS,
  type Readiness,
  readiness,
  type ServiceReachability,
  within,
} from './health.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
type JobCounts = Record<(typeof JOB_STATES)[number], number>;

export interface HealthDetail extends Readiness {
  /** Same as `ready`: 200 unless this process cannot serve. */
  ok: boolean;
  role: 'all' | 'web' | 'worker';
  service: { state: Part; lastCallSecondsAgo?: number };
  workers: { alive: number; newestHeartbeatSecondsAgo?: number } | 'unknown';
  queueJobs: Record<string, JobCounts> | 'unknown';
  freeze: { frozen: boolean; sinceSecondsAgo?: number } | 'unknown';
  sandbox: boolean;
}

export interface HealthSources {
  role: HealthDetail['role'];
  own: OwnConnections;
  /** Any connection that reads shared state (the fail-fast one where there is one). */
  redis: RedisClient;
  prefix: string;
  service: ServiceReachability;
  queues: readonly Queue[];
  /** When the freeze now in force began (ms), or undefined when Rampart is not frozen. */
  frozenSince(): Promise<number | undefined>;
  sandbox: boolean;
  now(): number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Each part is read in parallel and bounded, so a stalled Redis cannot hold the answer. */
export async function healthDetail(s: HealthSources, ms: number = PROBE_BOUND_MS): Promise<HealthDetail> {
  const now = s.now();
  const [ready, workers, queueJobs, freeze] = await Promise.all([
    readiness(s.own, ms),
    within(heartbeats(s.redis, s.prefix, now), ms).then(
      (h): HealthDetail['workers'] => ({
        alive: h.alive,
        ...(h.newestAgeMs === undefined ? {} : { newestHeartbeatSecondsAgo: seconds(h.newestAgeMs) }),
      }),
      () => 'unknown' as const,
    ),
    within(jobCounts(s.queues), ms).catch(() => 'unknown' as const),
    within(s.frozenSince(), ms).then(
      (since): HealthDetail['freeze'] =>
        since === undefined ? { frozen: false } : { frozen: true, sinceSecondsAgo: seconds(now - since) },
      () => 'unknown' as const,
    ),
  ]);
  const lastCall = s.service.at;
  return {
    ...ready,
    ok: ready.ready,
    role: s.role,
    service: {
      state: s.service.state,
      ...(lastCall === undefined ? {} : { lastCallSecondsAgo: seconds(now - lastCall) }),
    },
    workers,
    queueJobs,
    freeze,
    sandbox: s.sandbox,
  };
}

async function jobCounts(queues: readonly Queue[]): Promise<Record<string, JobCounts>> {
  const counts = await Promise.all(queues.map((q) => q.getJobCounts(...JOB_STATES)));
  return Object.fromEntries(
    queues.map((q, i) => [q.name, Object.fromEntries(JOB_STATES.map((st) => [st, counts[i]?.[st] ?? 0])) as JobCounts]),
  );
}
