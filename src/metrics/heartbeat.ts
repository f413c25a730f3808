/** Workers say they are alive in Redis, so any process's /healthz can tell. */

import type { Logger } from '../log.js';
import type { RedisClient } from '../redis-client.js';
import { beat, forget, HEARTBEAT_EVERY_MS } from './health.js';

export function startHeartbeat(
  redis: RedisClient,
  prefix: string,
  worker: string,
  now: () => number,
  log: Logger,
): { stop(): Promise<void> } {
  const tick = () => {
    beat(redis, prefix, worker, now()).catch((err: unknown) => log.warn({ err }, 'worker heartbeat failed'));
  };
  tick();
  const timer = setInterval(tick, HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await forget(redis, prefix, worker).catch(() => {});
    },
  };
}
