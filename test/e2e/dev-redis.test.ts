/**
 * `npm run dev` needs nothing running: with nothing at REDIS_URL it starts a
 * private redis-server, says so in one line, and stops it on exit; without the binary, one line
 * says how to get it. Run as a child process, exactly as `npm run dev` runs it (node --import
 * tsx: no tsx parent process that relays, and under load may turn, a Ctrl-C into a SIGKILL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pingRedis } from '../../devkit/private-redis.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { freePort } from '../support/redis-servers.js';

const DEV = new URL('../../devkit/dev.ts', import.meta.url).pathname;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

function startDev(env: Record<string, string>): { child: ChildProcess; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const c = spawn(process.execPath, ['--import', 'tsx', DEV], { env: { LOG_LEVEL: 'silent', PORT: '0', ...env } });
  c.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  c.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  child = c;
  return { child: c, out: () => out, err: () => err };
}

async function until(what: string, probe: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm run dev with nothing at REDIS_URL', () => {
  it('starts a private Redis, says so in one line, serves the workbench, and stops it on exit', async () => {
    const nothing = await freePort();
    const dev = startDev({ PATH: process.env.PATH ?? '', REDIS_URL: `redis://127.0.0.1:${nothing}` });
    await until('the workbench URL', () => /Rampart workbench: (http:\S+)/.test(dev.out()));

    const note = dev.out().split('\n')[0] ?? '';
    const m =
      /^Nothing answered at 127\.0\.0\.1:\d+, so this runs a private Redis at redis:\/\/127\.0\.0\.1:(\d+) \(in (\S+), removed on exit\)\.$/.exec(
        note,
      );
    expect(m, note).not.toBeNull();
    const [, port, dir] = m as RegExpExecArray;
    expect(await pingRedis('127.0.0.1', Number(port))).toBe('+PONG');
    expect(existsSync(dir as string)).toBe(true);
    const url = /Rampart workbench: (http:\S+)/.exec(dev.out())?.[1] as string;
    expect((await fetch(url)).status).toBe(200);
    expect(dev.err()).toBe('');

    dev.child.kill('SIGTERM');
    const [code] = await once(dev.child, 'exit');
    expect(code).toBe(0);
    expect(await pingRedis('127.0.0.1', Number(port))).toBeUndefined();
    expect(existsSync(dir as string)).toBe(false);
  }, 60_000);

  it('says in one line how to get redis-server when it is not installed', async () => {
    const emptyPath = await mkdtemp(join(tmpdir(), 'rampart-no-redis-'));
    try {
      const nothing = await freePort();
      const dev = startDev({ PATH: emptyPath, REDIS_URL: `redis://127.0.0.1:${nothing}` });
      const [code] = await once(dev.child, 'exit');
      expect(code).toBe(1);
      expect(dev.err()).toBe(
        `Nothing answers at 127.0.0.1:${nothing} and redis-server is not installed: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis that runs.\n`,
      );
    } finally {
      await rm(emptyPath, { recursive: true, force: true });
    }
  }, 60_000);

  it('uses a Redis that answers as it is, and says nothing about it', async () => {
    // Its own prefix, so the shared Redis's `rampart-workbench` keys are left alone.
    const prefix = `test-dev-${process.pid}-${Date.now()}`;
    const dev = startDev({ PATH: process.env.PATH ?? '', REDIS_URL, REDIS_PREFIX: prefix });
    try {
      await until('the workbench URL', () => /Rampart workbench: (http:\S+)/.test(dev.out()));
      expect(dev.out()).not.toContain('private Redis');
      dev.child.kill('SIGTERM');
      const [code] = await once(dev.child, 'exit');
      expect(code).toBe(0);
    } finally {
      await deleteKeys(prefix);
    }
  }, 60_000);
});
