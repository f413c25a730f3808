/**
 * Every Redis connection, Queue and Worker has an 'error' listener:
 * when Redis goes away under a running Rampart, the failure is logged by pino under `err`, and
 * nothing prints ioredis's "Unhandled error event" or any raw stack trace on stderr.
 * A private redis-server on a free port, killed mid-run; Rampart is `node src/main.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { eventually } from '../support/harness.js';

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'rampart-redis-errors-'));
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

it('logs a lost Redis through pino under err, with no raw stack trace on stderr', async () => {
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  children.push(redis);
  const rampart = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(rampart);
  let out = '';
  let err = '';
  rampart.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  rampart.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await eventually(
    async () => {
      if (out.includes('listening for Slack')) return true;
      return undefined;
    },
    15_000,
    'Rampart to start',
  );

  redis.kill('SIGKILL');
  await once(redis, 'exit');
  // The shared connection and BullMQ's own connections each report the loss through pino.
  const lines = await eventually(
    () => {
      const logged = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { redis?: string; queue?: string; err?: { message?: string } })
        .filter((l) => l.err && (l.redis || l.queue));
      return logged.some((l) => l.redis) && logged.some((l) => l.queue) ? logged : undefined;
    },
    15_000,
    'Redis errors in the log',
  );
  expect(lines[0]?.err?.message).toMatch(/ECONNREFUSED|ECONNRESET|EPIPE|Connection is closed/);
  expect(err).not.toContain('Unhandled error event');
  expect(err).not.toMatch(/\n\s+at /);
  expect(rampart.exitCode).toBeNull(); // still running, waiting for Redis to come back
});
