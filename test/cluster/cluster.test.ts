/**
 * Rampart on a real 3-master Redis Cluster on loopback: REDIS_CLUSTER_NODES
 * and a plain REDIS_PREFIX, nothing else. The approval journey, 20 concurrent clicks and a
 * worker killed mid-call each end with exactly one service call; every key Rampart owns,
 * BullMQ's included, lands in one hash slot; a cluster that cannot work is refused at start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRedis } from '../../src/store/redis.js';
import { RedisUnavailableError } from '../../src/store/redis-errors.js';
import {
  envFor,
  eventually,
  expectHealthyRun,
  type Harness,
  PEOPLE,
  REDIS_URL,
  startHarness,
} from '../support/harness.js';
import { type RedisCluster, type RedisServer, startRedisCluster, startRedisServer } from '../support/redis-servers.js';
import { click, postRequest, quiescent, RECEIVER, serviceCalls, threadOf, waitForState } from '../support/requests.js';

const FAST_WORKER = { lockDurationMs: 1000, stalledIntervalMs: 500, reconcileEveryMs: 300 };

const callsFor = (h: Harness, amount: number) =>
  serviceCalls(h, '/transfer').filter((c) => (c.body as { amount?: number }).amount === amount);

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster(3);
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('one web+worker process and a second worker on the cluster', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('cluster', { REDIS_CLUSTER_NODES: cluster.setting, SERVICE_RESPONSE_TIMEOUT: '700ms' });
    await h.startAnother({ ROLE: 'worker' }, { worker: { ...FAST_WORKER, name: 'second-worker' } });
  });
  afterAll(async () => {
    expectHealthyRun(h);
    await h.close();
  });

  it('uses the Cluster client and wraps a plain REDIS_PREFIX in a hash tag', () => {
    expect(h.rampart.redis).toBeInstanceOf(Cluster);
    expect(h.rampart.workerRedis).toBeInstanceOf(Cluster);
    expect(h.rampart.deps.config.redis.prefix).toBe(`{${h.prefix}}`);
  });

  it('runs the approval journey: card, approval, one service call, one thread reply', async () => {
    const { id } = await postRequest(h, 'transfer', `21 base:usdc to ${RECEIVER} from ops for cluster journey`);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    await eventually(() => threadOf(h, id).find((m) => m.text.includes('succeeded')), 10_000, 'thread reply');
    await quiescent(h); // a wrong second run would show itself before this returns
    expect(callsFor(h, 21)).toHaveLength(1);
    expect(threadOf(h, id).filter((m) => m.text.includes('succeeded'))).toHaveLength(1);
  });

  it('20 concurrent Approve clicks make exactly one service call', async () => {
    const { id } = await postRequest(h, 'transfer', `22 base:usdc to ${RECEIVER} from ops for cluster clicks`);
    const clickers = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? PEOPLE.approver1 : PEOPLE.approver2));
    const acks = await Promise.all(clickers.map((u) => click(h, u, id, 'request_approve')));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    await waitForState(h, id, 'succeeded');
    await h.rampart.workers?.reconcileNow();
    await quiescent(h);
    expect(callsFor(h, 22)).toHaveLength(1);
    expect(threadOf(h, id).filter((m) => m.text.includes('succeeded'))).toHaveLength(1);
  });

  it('keeps every key it owns, BullMQ queues included, in one hash slot on one node', async () => {
    const tag = h.rampart.deps.config.redis.prefix;
    const found: { node: string; key: string }[] = [];
    for (const node of cluster.nodes) {
      const redis = await openRedis(loadConfig({ REDIS_URL: node.url }).redis, 'cli');
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${tag}*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) found.push({ node: node.url, key });
      } while (cursor !== '0');
      redis.disconnect();
    }
    expect(found.some((f) => f.key.startsWith(`${tag}:bull:execute:`))).toBe(true);
    expect(found.some((f) => f.key.startsWith(`${tag}:req:`))).toBe(true);
    expect(new Set(found.map((f) => f.node)).size).toBe(1);
  });
});

describe('a worker process on the cluster killed while executing', () => {
  let h: Harness;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    h = await startHarness('cluster-killed', { ROLE: 'web', REDIS_CLUSTER_NODES: cluster.setting });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await h.close();
  });

  it('is never run again: the request becomes unknown and the thread says so', async () => {
    const env = envFor(h.prefix, h.sandbox, h.fake, {
      ROLE: 'worker',
      REDIS_CLUSTER_NODES: cluster.setting,
      SERVICE_RESPONSE_TIMEOUT: '60s',
    });
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-child.ts', JSON.stringify(env)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    const { id } = await postRequest(h, 'transfer', `23 base:usdc to ${RECEIVER} from ops for cluster crash`);
    h.sandbox.faults.hangAfterApply('/transfer');
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'executing');
    await eventually(() => (callsFor(h, 23).length === 1 ? true : undefined), 10_000, 'the call to reach the service');
    child.kill('SIGKILL');
    await once(child, 'exit');
    child = undefined;

    await h.startAnother({ ROLE: 'worker' }, { worker: { ...FAST_WORKER, name: 'restarted' } });
    await waitForState(h, id, 'unknown', 10_000);
    const reply = await eventually(
      () => threadOf(h, id).find((m) => m.text.includes('outcome unknown')),
      10_000,
      'unknown reply',
    );
    expect(reply.text).toContain('Do not request it again');
    await quiescent(h);
    expect(callsFor(h, 23)).toHaveLength(1);
  });
});

describe('start-up refuses a cluster that cannot work, in one sentence', () => {
  let lone: RedisServer;
  beforeAll(async () => {
    // A cluster-enabled node that was never given slots: cluster_state:fail.
    lone = await startRedisServer({ extra: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes-lone.conf'] });
  });
  afterAll(async () => {
    await lone?.stop();
  });

  const refusal = async (nodes: string) => {
    const open = openRedis(loadConfig({ REDIS_CLUSTER_NODES: nodes }).redis, 'requests');
    await expect(open).rejects.toBeInstanceOf(RedisUnavailableError);
    return (await open.catch((err: Error) => err)) as Error;
  };

  it('nodes that do not answer', async () => {
    const { message } = await refusal('127.0.0.1:1,127.0.0.1:2');
    expect(message).toBe(
      'the Redis Cluster at 127.0.0.1:1, 127.0.0.1:2 cannot be reached; start it or correct REDIS_CLUSTER_NODES.',
    );
  });

  it('a cluster whose state is not ok', async () => {
    const { message } = await refusal(`127.0.0.1:${lone.port}`);
    expect(message).toBe(
      `the Redis Cluster at 127.0.0.1:${lone.port} reports cluster_state fail instead of ok; bring every slot's master up, or correct REDIS_CLUSTER_NODES.`,
    );
  });

  it('a plain Redis given as a cluster node', async () => {
    const { message } = await refusal(new URL(REDIS_URL).host); // the suite's shared, plain Redis
    expect(message).toContain('is not a Redis Cluster');
  });
});
