/**
 * What the probes know: whether THIS process can do its
 * own job (readiness: its own Redis connections answer), and the detail of everything else —
 * the service as last seen, workers' heartbeats, queue depths, the freeze — which never decides
 * a status code: dependency trouble is for /metrics and the alert rules.
 */
import type { RedisClient } from '../redis-client.js';
import type { CallOutcome } from './metrics.js';

export const HEARTBEAT_EVERY_MS = 10_000;
/** A worker that has not beaten for this long is taken as gone. */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_EVERY_MS;
/** Under Kubernetes' default 1 s probe time-out, so a stalled Redis reads as 503, not as no answer. */
export const PROBE_BOUND_MS = 800;

export type Part = 'up' | 'down' | 'unknown';

/** The service's reachability as the last finished call saw it (reported, never a status code). */
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
  /** When the last call ended (ms since the epoch), if any. */
  get at(): number | undefined {
    return this.last?.at;
  }
}

const heartbeatKey = (prefix: string) => `${prefix}:workers:heartbeat`;

export async function beat(redis: RedisClient, prefix: string, worker: string, now: number): Promise<void> {
  await redis.hset(heartbeatKey(prefix), worker, String(now));
}

export async function forget(redis: RedisClient, prefix: string, worker: string): Promise<void> {
  await redis.hdel(heartbeatKey(prefix), worker);
}

export interface Heartbeats {
  /** Workers whose heartbeat is fresher than HEARTBEAT_STALE_MS. */
  alive: number;
  /** Age of the newest heartbeat; undefined when no worker ever beat on this prefix. */
  newestAgeMs: number | undefined;
}

export async function heartbeats(redis: RedisClient, prefix: string, now: number): Promise<Heartbeats> {
  const ages = Object.values(await redis.hgetall(heartbeatKey(prefix))).map((at) => now - Number(at));
  return {
    alive: ages.filter((age) => age < HEARTBEAT_STALE_MS).length,
    newestAgeMs: ages.length === 0 ? undefined : Math.max(0, Math.min(...ages)),
  };
}

/** `work`, or a rejection once `ms` have passed (the timer never keeps the process alive). */
export function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Whether a connection answers PING in time; a patient connection that is not ready does not. */
export async function answers(redis: RedisClient, ms: number = PROBE_BOUND_MS): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  try {
    await within(redis.ping(), ms);
    return true;
  } catch {
    return false;
  }
}

/** The connections THIS process needs for its own job, by role. */
export interface OwnConnections {
  /** Request handling's fail-fast connection (web roles). */
  requests?: RedisClient;
  /** The workers' patient connection, which their queues use (worker roles). */
  queues?: RedisClient;
}

export interface Readiness {
  ready: boolean;
  redis?: Part;
  queues?: Part;
}

export async function readiness(own: OwnConnections, ms: number = PROBE_BOUND_MS): Promise<Readiness> {
  const [redis, queues] = await Promise.all([
    own.requests ? answers(own.requests, ms) : undefined,
    own.queues ? answers(own.queues, ms) : undefined,
  ]);
  const part = (ok: boolean): Part => (ok ? 'up' : 'down');
  return {
    ready: redis !== false && queues !== false,
    ...(redis === undefined ? {} : { redis: part(redis) }),
    ...(queues === undefined ? {} : { queues: part(queues) }),
  };
}
