/**
 * `rampart doctor`'s look at Redis, opened on its own connection so that a failing
 * Redis is one ✗ line. Built by the composition root (compose/cli-role.ts): the CLI never
 * imports store/.
 */
import type { RedisProbe } from '../app/doctor.js';
import type { Config } from '../config.js';
import { closeRedis, openRedis, type RedisClient, redisWhere } from '../store/redis.js';

export interface OpenedProbe {
  probe: RedisProbe;
  close(): Promise<void>;
}

function redisProbe(client: RedisClient, where: string): RedisProbe {
  return {
    where,
    info: (section) => client.info(section),
    async saveConfig() {
      try {
        const [, value] = (await client.config('GET', 'save')) as string[];
        return value;
      } catch {
        return undefined; // managed Redis often refuses CONFIG
      }
    },
    clusterInfo: () => client.cluster('INFO') as Promise<string>,
  };
}

export async function openRedisProbe(settings: Config['redis']): Promise<OpenedProbe> {
  const client = await openRedis(settings, 'cli');
  return { probe: redisProbe(client, redisWhere(settings)), close: () => closeRedis(client) };
}
