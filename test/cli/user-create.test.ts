/**
 * `rampart user create` in-process: what is checked before the password is read, and the
 * sentences for a refused token. The subprocess path (stdin, argv) is in bin.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli, lines } from './support.js';

const KEY = 'cli-user-key';
let sandbox: Sandbox;
let env: Record<string, string>;
const ARGS = ['user', 'create', '--email', 'ops@example.com', '--name', 'Ops Bot'];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, bearerToken: 'right-token' });
  env = { NODE_ENV: 'test', SERVICE_BASE_URL: sandbox.url, SERVICE_API_KEY: KEY, SERVICE_BEARER_TOKEN: 'right-token' };
});
afterAll(async () => {
  await sandbox.close();
});

const posts = () => sandbox.state.received.filter((r) => r.path === '/user').length;

describe('rampart user create', () => {
  it('prints the code and key as JSON with --json, the warning on stderr', async () => {
    const r = await cli([...ARGS, '--json'], env, 'pw-1\n');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ code: expect.any(Number), key: expect.stringMatching(/^sk_sandbox_/) });
    expect(lines(r.stderr)).toEqual([
      'Store this key now (e.g. in your secret manager): it is shown only this once and Rampart keeps no copy.',
    ]);
  });

  it.each([
    [['user', 'create', '--name', 'X'], 'rampart: missing --email'],
    [['user', 'create', '--email', 'not-an-email', '--name', 'X'], 'rampart: --email: must be an email address'],
    [[...ARGS, '--website', 'example'], 'rampart: --website: must be a URL such as https://example.com'],
    [[...ARGS, '--password', 'x'], 'rampart: --password is refused'],
  ])('exits 2 for %j before reading a password or calling the service', async (argv, message) => {
    const before = posts();
    const r = await cli(argv, env, 'pw\n');
    expect(r.code).toBe(2);
    expect(lines(r.stderr)[0]?.startsWith(message)).toBe(true);
    expect(posts()).toBe(before);
  });

  it('exits 1 when SERVICE_BEARER_TOKEN is not set, saying so', async () => {
    const r = await cli(ARGS, { ...env, SERVICE_BEARER_TOKEN: '' }, 'pw\n');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'rampart: SERVICE_BEARER_TOKEN is not set, and POST /user needs it; set it and run again.',
    ]);
  });

  it('exits 1 when stdin holds no password', async () => {
    const r = await cli(ARGS, env, '');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('No password on stdin');
  });

  it('exits 1 naming SERVICE_BEARER_TOKEN, not the API key, when the service refuses the token', async () => {
    const r = await cli(ARGS, { ...env, SERVICE_BEARER_TOKEN: 'wrong-token' }, 'pw\n');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'rampart: The wallet service refused SERVICE_BEARER_TOKEN (HTTP 401); check it. No user was created.',
    ]);
    expect(r.stderr).not.toContain('wrong-token');
  });

  it('a 502 after sending says the outcome is unknown and what to check, never to run it again', async () => {
    const before = posts();
    sandbox.faults.failNext('/user', 1, { status: 502, body: 'html' });
    const r = await cli(ARGS, env, 'pw\n');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      "rampart: outcome unknown: The wallet service failed with HTTP 502. It may have reached the service. The user may have been created: do not run this again until the service's records (ask its operators) show no user with this email.",
    ]);
    expect(posts()).toBe(before + 1);
  });
});
