/**
 * Private Redis servers for tests that stop, kill or cluster Redis: each runs from
 * a temp dir on a free loopback port and is removed afterwards. Needs redis-server and
 * redis-cli (Debian: redis-server, which pulls in redis-tools; .ci/run installs them).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { useStarted } from './use-harness.js';

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
  return stdout;
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RedisServer {
  port: number;
  url: string;
  dir: string;
  process: ChildProcess;
  /** False after kill() until restart(). */
  readonly running: boolean;
  /** SIGKILL: no shutdown, no final save. */
  kill(): Promise<void>;
  /** Starts again on the same port and dir (AOF reloaded when on). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that accepts connections and answers nothing. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  appendonly?: boolean;
  extra?: string[];
  dir?: string;
  port?: number;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rampart-redis-')));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendonly ? 'yes' : 'no',
    '--maxmemory-policy',
    'noeviction',
    ...(options.extra ?? []),
  ];
  const launch = async () => {
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor(`redis-server on ${port}`, async () => (await cli(port, 'PING')).trim() === 'PONG');
    return child;
  };
  let child = await launch();
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get process() {
      return child;
    },
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
    async restart() {
      child = await launch();
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
    async stop() {
      await server.kill();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * A private redis-server for the enclosing file or block, stopped (and its dir removed) at the
 * end. Call it before useHarness, whose env names its url: hooks run in reverse, so the harness
 * deletes its keys while this server is still up.
 */
export const usePrivateRedis = (options: RedisServerOptions = {}): RedisServer =>
  useStarted(
    'private Redis',
    () => startRedisServer(options),
    (server) => server.stop(),
  );

/**
 * A private redis-server that takes DEBUG SLEEP (the whole server stalls), with an admin
 * connection of its own to send it from; call it before useHarness.
 */
export function useDebugRedis(): { server: RedisServer; admin: Redis } {
  const server = usePrivateRedis({ extra: ['--enable-debug-command', 'local'] });
  const admin = useStarted(
    'admin connection',
    async () => new Redis(server.url),
    (c) => c.disconnect(),
  );
  return { server, admin };
}

/** Brings back a server a test (perhaps a failed one) left killed or paused, so clean-up can reach it. */
export async function bringBack(server: RedisServer): Promise<void> {
  if (!server.running) await server.restart();
  server.resume();
}

export interface RedisCluster {
  nodes: RedisServer[];
  /** REDIS_CLUSTER_NODES for these nodes. */
  setting: string;
  stop(): Promise<void>;
}

/** A real 3-master Redis Cluster on loopback, no replicas. */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-cluster-'));
  const nodes: RedisServer[] = [];
  try {
    for (let i = 0; i < masters; i += 1) {
      const port = await freePort();
      nodes.push(
        await startRedisServer({
          dir,
          port,
          extra: ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
        }),
      );
    }
    await run(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { timeout: 20_000 },
    );
    for (const n of nodes)
      await waitFor('cluster_state:ok', async () =>
        (await cli(n.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
  } catch (err) {
    for (const n of nodes) await n.kill();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    nodes,
    setting: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    async stop() {
      for (const n of nodes) await n.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
