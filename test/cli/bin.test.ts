/**
 * bin/rampart.js as a real process (tsx from source, or dist when built): the password reaches
 * the service from stdin and nowhere else; --password is refused; the bin runs a read command.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

const BIN = fileURLToPath(new URL('../../bin/rampart.js', import.meta.url));
const KEY = 'cli-bin-key';
const BEARER = 'cli-bin-bearer';
const PASSWORD = 'correct horse battery staple 7';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, bearerToken: BEARER });
});
afterAll(async () => {
  await sandbox.close();
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  spawnargs: string[];
}

/** The child's whole environment is `env`: nothing is inherited from this process. */
function rampart(args: string[], stdin = ''): Promise<Ran> {
  const env = {
    NODE_ENV: 'test',
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_API_KEY: KEY,
    SERVICE_BEARER_TOKEN: BEARER,
  };
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, spawnargs: child.spawnargs }));
  });
}

describe('bin/rampart.js', () => {
  it.concurrent('user create reads the password from stdin, sends it, and never shows it', async () => {
    const r = await rampart(
      ['user', 'create', '--email', 'ops@example.com', '--name', 'Ops Bot', '--website', 'https://example.com'],
      `${PASSWORD}\n`,
    );
    expect(r.stderr).toContain('Store this key now');
    expect(r.code).toBe(0);
    const code = /^Code {2}(\d+)$/m.exec(r.stdout)?.[1];
    expect(/^Key {3}sk_sandbox_[0-9a-f]+$/m.test(r.stdout)).toBe(true);
    expect(sandbox.state.users.map((u) => String(u.code))).toContain(code);
    const sent = sandbox.state.received.find((q) => q.path === '/user');
    expect(sent?.body).toEqual({
      email: 'ops@example.com',
      name: 'Ops Bot',
      website: 'https://example.com',
      password: PASSWORD,
    });
    expect(r.spawnargs.join(' ')).not.toContain(PASSWORD);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  });

  it.concurrent('refuses --password with exit 2, saying why, without echoing the value', async () => {
    const r = await rampart(['user', 'create', '--email', 'a@example.com', '--name', 'A', `--password=${PASSWORD}`]);
    expect(r.code).toBe(2);
    const [message, usage, ...more] = r.stderr.split('\n').filter(Boolean);
    expect(message).toMatch(/^rampart: --password is refused: a password in the arguments is visible/);
    expect(usage).toBe('usage: rampart user create --email E --name N [--website URL] [--description D] [--json]');
    expect(more).toEqual([]);
    expect(r.stderr + r.stdout).not.toContain(PASSWORD);
  });

  it.concurrent('runs balances ops --json', async () => {
    const r = await rampart(['balances', 'ops', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((b) => b.id)).toContain('bsc:cngn');
  });
});
