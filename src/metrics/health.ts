/**
 * What /healthz reports (issue 14): Redis, the service as the last calls found it, and whether a
 * worker has beaten its heart lately. 503 when Rampart cannot do its job: Redis down, no live
 * worker to execute approvals, or the service unreachable on its last call.
 */
import type { RedisClient } from '../store/redis.js';
import type { CallOutcome } from './metrics.js';

export const HEARTBEAT_EVERY_MS = 10_000;
/** A worker that has not beaten for this long is taken as gone. */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_EVERY_MS;

export type Part = 'up' | 'down' | 'unknown';

export interface HealthReport {
  ok: boolean;
  redis: Part;
  service?: Part;
  workers?: Part;
  sandbox?: boolean;
}

/** The service's reachability as the last finished call saw it. */
export class ServiceReachability {
  private last: { outcome: CallOutcome; at: number } | undefined;
  record(outcome: CallOutcome, at: number): void {
    if (outcome !== 'invalid') this.last = { outcome, at };
  }
  get state(): Part {
    if (!this.last) return 'unknown';
    // not_sent: the connection failed; ambiguous: no usable answer (5xx, time-out, reset).
    return this.last.outcome === 'ok' || this.last.outcome === 'refused' ? 'up' : 'down';
  }
}

const heartbeatKey = (prefix: string) => `${prefix}:workers:heartbeat`;

export async function beat(redis: RedisClient, prefix: string, worker: string, now: number): Promise<void> {
  await redis.hset(heartbeatKey(prefix), worker, String(now));
}

export async function forget(redis: RedisClient, prefix: string, worker: string): Promise<void> {
  await redis.hdel(heartbeatKey(prefix), worker);
}

/** Newest heartbeat of any worker on this prefix, or undefined when none ever beat. */
export async function lastHeartbeat(redis: RedisClient, prefix: string): Promise<number | undefined> {
  const beats = Object.values(await redis.hgetall(heartbeatKey(prefix))).map(Number);
  return beats.length === 0 ? undefined : Math.max(...beats);
}

export async function healthReport(deps: {
  redis: RedisClient;
  prefix: string;
  service: ServiceReachability;
  sandbox: boolean;
  now: () => number;
}): Promise<HealthReport> {
  let last: number | undefined;
  try {
    await deps.redis.ping();
    last = await lastHeartbeat(deps.redis, deps.prefix);
  } catch {
    return { ok: false, redis: 'down' };
  }
  const workers: Part = last !== undefined && deps.now() - last < HEARTBEAT_STALE_MS ? 'up' : 'down';
  const service = deps.service.state;
  return { ok: workers === 'up' && service !== 'down', redis: 'up', service, workers, sandbox: deps.sandbox };
}
