/**
 * No development secret where real credentials are configured (DESIGN
 * invariant 8): `node src/main.ts` with a real-looking bot token and service URL but no
 * SLACK_SIGNING_SECRET refuses to start, whatever NODE_ENV says, instead of accepting requests
 * signed with the secret that is in the source. With the real secret set, a request signed
 * with the development one is refused (401).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../devkit/index.js';
import { DEV_DEFAULTS } from '../../src/config.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-dev-secret-${randomUUID().slice(0, 8)}`;
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});
afterAll(() => deleteKeys(prefix));

type Started = { exited: number | null; stderr: string } | { port: number };

/** Runs main.ts until it exits or says it is listening. */
function start(env: Record<string, string>): Promise<Started> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', REDIS_URL, REDIS_PREFIX: prefix, ROLE: 'web', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  let err = '';
  return new Promise((resolve) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /"port":(\d+)[^\n]*listening for Slack/.exec(out)?.[1];
      if (port) resolve({ port: Number(port) });
    });
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    proc.on('exit', (code) => resolve({ exited: code, stderr: err }));
  });
}

async function signedCommand(port: number, secret: string): Promise<number> {
  const body = new URLSearchParams({
    command: '/rate',
    text: '',
    team_id: 'T0FAKE0001',
    user_id: 'U0REQUESTER',
    channel_id: 'C0GENERAL',
    trigger_id: '1.2.3',
    response_url: 'http://127.0.0.1:9/response',
  }).toString();
  const res = await request(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(secret, body) },
    body,
  });
  await res.body.text();
  return res.statusCode;
}

const REAL = {
  SLACK_BOT_TOKEN: 'xoxb-1111-2222-realish',
  SLACK_API_URL: 'http://127.0.0.1:9/api/',
  SERVICE_BASE_URL: 'http://127.0.0.1:9',
  SERVICE_API_KEY: 'real-service-key-77aa',
};

describe('the development signing secret', () => {
  // NODE_ENV unset, as the issue reproduced it; test/unit/config.test.ts covers the other values.
  it('is never used with a real bot token and service URL: start-up stops with one message', async () => {
    const started = await start(REAL);
    // Were it listening, show what it would have done with a forged request.
    const forged = 'port' in started ? await signedCommand(started.port, DEV_DEFAULTS.signingSecret) : undefined;
    expect(forged).toBeUndefined();
    expect(started).toMatchObject({ exited: 1 });
    const stderr = 'stderr' in started ? started.stderr : '';
    expect(stderr).toContain('SLACK_SIGNING_SECRET is required when SLACK_BOT_TOKEN or SERVICE_BASE_URL is set');
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    for (const secret of [REAL.SLACK_BOT_TOKEN, REAL.SERVICE_API_KEY]) expect(stderr).not.toContain(secret);
  });

  it('is refused (401) when the real secret is configured', async () => {
    const started = await start({ ...REAL, SLACK_SIGNING_SECRET: 'the-apps-real-signing-secret' });
    if (!('port' in started)) throw new Error(`did not start: ${started.stderr}`);
    expect(await signedCommand(started.port, DEV_DEFAULTS.signingSecret)).toBe(401);
  });
});
