/**
 * `npm run dev` needs nothing running: when nothing answers at a loopback
 * REDIS_URL, a private redis-server is started on a free port in a temporary directory, without
 * persistence, and stopped (its directory removed) on exit. Without the binary, one sentence
 * says how to get it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export class RedisUnavailableError extends Error {
  readonly code = 'REDIS_UNAVAILABLE';
}

/** The first line Redis answers to PING at host:port, or undefined when nothing answers. */
export function pingRedis(host: string, port: number, timeoutMs = 1000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let answer = '';
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.slice(0, answer.indexOf('\r\n')));
    });
  });
}

/** The path of `name` on PATH, if it is there and executable. */
export function onPath(name: string, path = ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

export interface DevRedis {
  /** The REDIS_URL to use. */
  url: string;
  /** One line for the person, when a private server was started. */
  note: string | undefined;
  stop(): Promise<void>;
  /** Synchronous last resort on process exit. */
  kill(): void;
}

const asIs = (url: string): DevRedis => ({ url, note: undefined, stop: async () => {}, kill: () => {} });

/**
 * The Redis `npm run dev` should use: the configured one when it answers (or is not on this
 * machine), else a private one. `path` is the PATH to look for redis-server on.
 */
export async function redisForDev(url: string, path: string): Promise<DevRedis> {
  const u = new URL(url);
  if (!LOOPBACK.has(u.hostname)) return asIs(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if ((await pingRedis(host, Number(u.port || 6379))) !== undefined) return asIs(url);
  const binary = onPath('redis-server', path);
  if (!binary)
    throw new RedisUnavailableError(
      `Nothing answers at ${u.host} and redis-server is not installed: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis that runs.`,
    );
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'rampart-dev-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const child: ChildProcess = spawn(binary, [...args, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  while ((await pingRedis('127.0.0.1', port, 200)) !== '+PONG') {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new RedisUnavailableError(
        `Nothing answers at ${u.host} and a private redis-server (${binary}) did not start.`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const privateUrl = `redis://127.0.0.1:${port}`;
  return {
    url: privateUrl,
    note: `Nothing answered at ${u.host}, so this runs a private Redis at ${privateUrl} (in ${dir}, removed on exit).`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}
