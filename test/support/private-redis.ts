/**
 * A redis-server of the test's own, on a free loopback port in a temporary directory: for tests
 * that stall (DEBUG SLEEP), stop or reconfigure Redis without touching the shared one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface PrivateRedis {
  url: string;
  port: number;
  /** Blocks the server for `seconds` (DEBUG SLEEP); resolves when it answers again. */
  stall(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((r) => server.close(r));
  return port;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--enable-debug-command',
      'local',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const admin = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: () => 50 });
  admin.on('error', () => {}); // refused until the server is up; the loop below waits
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      await admin.connect();
      await admin.ping();
      break;
    } catch (err) {
      if (Date.now() > until) throw err;
      admin.disconnect();
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port,
    async stall(seconds) {
      await admin.call('DEBUG', 'SLEEP', String(seconds));
    },
    async stop() {
      admin.disconnect();
      child.kill('SIGKILL');
      if (child.exitCode === null) await once(child, 'exit');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
