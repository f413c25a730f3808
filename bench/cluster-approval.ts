/**
 * Part 4: the approval path (click ack → service receives POST /transfer) on a real
 * 3-master Redis Cluster on loopback, beside the same path on one Redis, in the same run. Both
 * are private servers started in temp dirs (redis-server and redis-cli must be installed) and
 * removed afterwards, so neither competes with other users of the shared Redis.
 */
import { startRedisCluster, startRedisServer } from '../test/support/redis-servers.js';
import { measureApprovals } from './approval-latency.js';
import { ms, PERCENTILES, type Percentile, ratios, type Summary, summarize, table } from './stats.js';
import { startWorld } from './world.js';

export interface ClusterReport {
  masters: number;
  single: Summary & { errors: number };
  cluster: Summary & { errors: number };
  ratio: Record<Percentile, number>;
}

interface Counts {
  warmup: number;
  measured: number;
  concurrency: number;
}

/** With clusterNodes set, redisUrl only lends credentials (none here). */
async function approvalsOn(redisUrl: string, clusterNodes: string | undefined, counts: Counts) {
  const world = await startWorld(redisUrl, clusterNodes);
  try {
    const r = await measureApprovals(world, counts);
    return { ...summarize(r.samples), errors: r.errors };
  } finally {
    await world.close();
  }
}

export async function measureClusterApprovals(
  counts: Counts,
  progress: (text: string) => void,
): Promise<ClusterReport> {
  const masters = 3;
  progress('part 4: starting one private Redis on loopback');
  const server = await startRedisServer();
  let single: ClusterReport['single'];
  try {
    progress(`part 4: ${counts.measured} approvals on one Redis`);
    single = await approvalsOn(server.url, undefined, counts);
  } finally {
    await server.stop();
  }
  progress(`part 4: starting a ${masters}-master Redis Cluster on loopback`);
  const cluster = await startRedisCluster(masters);
  try {
    progress(`part 4: ${counts.measured} approvals on the cluster`);
    const onCluster = await approvalsOn(cluster.nodes[0]?.url ?? server.url, cluster.setting, counts);
    return { masters, single, cluster: onCluster, ratio: ratios(onCluster, single) };
  } finally {
    await cluster.stop();
  }
}

const row = (name: string, s: Summary, extra: string[]) => [
  name,
  ...PERCENTILES.map((p) => ms(s[p])),
  ms(s.mean),
  ...extra,
];

export function clusterLines(report: ClusterReport, measured: number, mode: string): string[] {
  return [
    `Part 4: approve click acked → POST /transfer, one Redis beside a ${report.masters}-master Redis Cluster, ms (M=${measured}, ${mode})`,
    table(
      ['', 'p50', 'p95', 'p99', 'max', 'mean', 'errors'],
      [
        row('one Redis', report.single, [String(report.single.errors)]),
        row('Redis Cluster', report.cluster, [String(report.cluster.errors)]),
        ['ratio cluster/one', ...PERCENTILES.map((p) => `${ms(report.ratio[p])}×`)],
      ],
    ),
  ];
}
