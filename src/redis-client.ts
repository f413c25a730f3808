/**
 * The one type for a Redis connection, standalone or Cluster (ioredis). Type-only, so the
 * adapters that hand a connection to a library (BullMQ's queues and workers, the probes) can name
 * it without reaching into store/, which builds and owns every connection's use.
 */
import type { Cluster, Redis } from 'ioredis';

export type RedisClient = Redis | Cluster;
