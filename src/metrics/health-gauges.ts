/**
 * Gauges the "no worker heartbeat" and "service failing" alert rules read (issue 19): dependency
 * trouble belongs in /metrics, not in a probe's status code. Registered beside createMetrics's
 * own, read at scrape time.
 */
import { Gauge } from 'prom-client';
import type { RedisClient } from '../store/redis.js';
import { heartbeats, PROBE_BOUND_MS, type ServiceReachability, within } from './health.js';
import type { Metrics } from './metrics.js';

export interface HealthGaugeSources {
  redis: RedisClient;
  prefix: string;
  service: ServiceReachability;
  now(): number;
}

export function registerHealthGauges(metrics: Metrics, s: HealthGaugeSources): void {
  new Gauge({
    name: 'rampart_workers_alive',
    help: 'Workers whose heartbeat in Redis is under 30 s old (read at scrape time; NaN when Redis does not answer).',
    registers: [metrics.registry],
    async collect() {
      try {
        this.set((await within(heartbeats(s.redis, s.prefix, s.now()), PROBE_BOUND_MS)).alive);
      } catch {
        this.set(Number.NaN); // unknown, not zero: comparisons with NaN never fire an alert
      }
    },
  });
  new Gauge({
    name: 'rampart_service_up',
    help: "1 when this process's last service call got the service's answer, 0 when it was not sent or ambiguous; NaN before any call.",
    registers: [metrics.registry],
    collect() {
      const state = s.service.state;
      this.set(state === 'unknown' ? Number.NaN : state === 'up' ? 1 : 0);
    },
  });
}
