/**
 * The gauge the "no worker heartbeat" alert rule reads: dependency trouble belongs in
 * /metrics, not in a probe's status code. ("Service failing" reads the existing
 * rampart_service_call_duration_seconds_count by outcome.) Read at scrape time.
 */
import { Gauge } from 'prom-client';
import type { RedisClient } from '../redis-client.js';
import { heartbeats, PROBE_BOUND_MS, within } from './health.js';
import type { Metrics } from './metrics.js';

export interface HealthGaugeSources {
  redis: RedisClient;
  prefix: string;
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
}
