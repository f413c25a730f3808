/**
 * `rampart doctor` against the sandbox, the fake Slack and a private redis-server:
 * all ✓ and exit 0 when everything is wired; each broken piece gives its ✗ line and exit 1.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { PasskeyStore } from '../../src/store/passkeys.js';
import { type RedisServer, startRedisServer } from '../support/redis-servers.js';
import { cli, lines } from './support.js';

const KEY = 'doctor-service-key-5c1e';
const TOKEN = 'xoxb-doctor-token';
let redis: RedisServer;
let admin: Redis;
let sandbox: Sandbox;
let fake: FakeSlack;
let narrow: FakeSlack;

const slackOptions = {
  botToken: TOKEN,
  people: [
    { id: 'U0APPROVER1', name: 'a1', real_name: 'A One', tz: 'Africa/Lagos' },
    { id: 'U0APPROVER2', name: 'a2', real_name: 'A Two', tz: 'Africa/Lagos' },
  ],
  usergroups: { S0TREASURY: ['U0APPROVER2'] },
  channels: [
    { id: 'C0APPROVALS', name: 'treasury-approvals' },
    { id: 'C0NOTINVITED', name: 'treasury-private', is_member: false },
  ],
};

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
  await admin.config('SET', 'appendonly', 'yes');
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  fake = await startFakeSlack(slackOptions);
  narrow = await startFakeSlack({ ...slackOptions, scopes: ['commands', 'chat:write', 'usergroups:read'] });
});
afterAll(async () => {
  await admin.quit();
  await redis.stop();
  await sandbox.close();
  await fake.close();
  await narrow.close();
});

const env = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'test',
  REDIS_URL: redis.url,
  REDIS_PREFIX: `test-doctor-${randomUUID().slice(0, 8)}`,
  SLACK_BOT_TOKEN: TOKEN,
  SLACK_API_URL: fake.apiUrl,
  SERVICE_BASE_URL: sandbox.url,
  SERVICE_API_KEY: KEY,
  WALLETS: 'ops=wal_ops_7f3a,treasury=wal_treasury_91c2',
  APPROVALS_CHANNEL: 'C0APPROVALS',
  APPROVERS: 'U0APPROVER1,U0APPROVER2,S0TREASURY',
  ...extra,
});

const failing = (stdout: string) => lines(stdout).filter((l) => l.startsWith('✗'));

/** `rampart doctor` with `extra` settings, which must exit 1; its output. */
async function doctorFails(extra: Record<string, string> = {}) {
  const r = await cli(['doctor'], env(extra));
  expect(r.code).toBe(1);
  return r;
}

describe('rampart doctor', () => {
  it('passes with every piece in place: one ✓ line per check (a ! for no screening list yet), exit 0, no secret printed', async () => {
    const r = await cli(['doctor'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((l) => l.replace(/\(Redis [\d.]+\)/, '(Redis x)'))).toEqual([
      '✓ configuration loads (test, ROLE=all, 2 wallets, 3 approver entries)',
      `✓ Redis at 127.0.0.1:${redis.port} answers (Redis x)`,
      '✓ Redis maxmemory-policy is noeviction',
      '✓ Redis persistence is on (AOF)',
      '✓ DESTINATIONS=open (the default): any valid address is paid (set DESTINATIONS, or run `rampart addresses import --from-paid` for warn)',
      '! no sanctions list is loaded: cards say "Not screened" — fix: run `rampart screening load FILE`',
      `✓ the service at ${sandbox.url} answers and accepts SERVICE_API_KEY (GET /rate/onramp)`,
      '✓ wallet ops (wal_ops_7f3a) found and active',
      '✓ wallet treasury (wal_treasury_91c2) found and active',
      '✓ Slack accepts SLACK_BOT_TOKEN (workspace fake (fake))',
      '✓ the bot has every scope manifest.yml asks for (commands, chat:write, usergroups:read, channels:read, groups:read, users:read, channels:history, groups:history, files:read, files:write)',
      '✓ the bot is a member of #treasury-approvals (C0APPROVALS)',
      '✓ approver U0APPROVER1 found',
      '✓ approver U0APPROVER2 found',
      '✓ approver group S0TREASURY has 1 member',
      '✓ 3 approvers: a not-paid proposal can be confirmed by a second one',
    ]);
    for (const secret of [KEY, TOKEN]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('warns, without failing, while fewer approvers hold a passkey that counts than the largest quorum needs', async () => {
    const e = env({
      STEP_UP_ABOVE: 'USDC=10000',
      TWO_APPROVALS_ABOVE: 'USDC=1000',
      PUBLIC_URL: 'http://localhost:3000',
    });
    const before = await cli(['doctor'], e);
    expect(before.code).toBe(0);
    expect(lines(before.stdout)).toContain(
      '! only 0 approvers with a passkey that counts, and the largest quorum needs 2: step-up requests that need more stay pending until they expire — fix: enrol passkeys: `rampart passkeys enrol-link --user U…` for the first, then /passkey approved by another approver',
    );
    const store = new PasskeyStore(admin, e.REDIS_PREFIX);
    for (const user of ['U0APPROVER1', 'U0APPROVER2'])
      await store.add(
        {
          id: `cred-${user}`,
          user,
          publicKey: 'pk',
          aaguid: '',
          browser: 'b',
          createdAt: 0,
          status: 'active',
          usableFrom: 0,
        },
        0,
      );
    const after = await cli(['doctor'], e);
    expect(lines(after.stdout)).toContain('✓ 2 approvers with a passkey that counts (the largest quorum needs 2)');
  });

  it('never prints the credentials of a URL', async () => {
    const withCredentials = sandbox.url.replace('http://', 'http://ops:URL-SECRET-5c1e@');
    const r = await cli(['doctor'], env({ SERVICE_BASE_URL: withCredentials }));
    expect(r.stdout + r.stderr).not.toContain('URL-SECRET-5c1e');
    expect(r.stdout).toContain(`the service at ${sandbox.url.replace('http://', 'http://[redacted]@')}`);
  });

  it('names a service key the service refuses', async () => {
    const r = await doctorFails({ SERVICE_API_KEY: 'not-the-key-0000' });
    expect(failing(r.stdout)).toEqual([
      '✗ the service refused SERVICE_API_KEY (HTTP 401 on GET /rate/onramp) — fix: set SERVICE_API_KEY to the key the service issued for Rampart',
    ]);
    expect(lines(r.stderr)).toEqual(['rampart: 1 check(s) failed; a payment cannot run until each ✗ is fixed.']);
    expect(r.stdout + r.stderr).not.toContain('not-the-key-0000');
  });

  it('names an approvals channel the bot was never invited to', async () => {
    const r = await doctorFails({ APPROVALS_CHANNEL: 'C0NOTINVITED' });
    expect(failing(r.stdout)).toEqual([
      '✗ the bot is not a member of #treasury-private (C0NOTINVITED) — fix: type /invite @Rampart in #treasury-private',
    ]);
  });

  it('names each scope the token was not granted', async () => {
    const r = await doctorFails({ SLACK_API_URL: narrow.apiUrl });
    expect(failing(r.stdout)).toEqual([
      '✗ the bot lacks the scopes channels:read, groups:read, users:read, channels:history, groups:history, files:read, files:write — fix: update the app from manifest.yml and reinstall it to the workspace',
    ]);
  });

  it('names wallets and approvers that do not resolve', async () => {
    const r = await cli(
      ['doctor'],
      env({
        WALLETS: 'ops=wal_ops_7f3a,legacy=wal_legacy_0b19,gone=wal_nope',
        APPROVERS: 'U0APPROVER1,U0NOBODY1,S0NOGROUP',
      }),
    );
    expect(r.code).toBe(1);
    expect(failing(r.stdout)).toEqual([
      '✗ wallet legacy (wal_legacy_0b19) is inactive at the service — fix: activate it or remove it from WALLETS',
      '✗ wallet gone: the service has no wallet wal_nope — fix: correct WALLETS',
      '✗ approver U0NOBODY1 not found (user_not_found) — fix: correct APPROVERS',
      '✗ approver group S0NOGROUP not found (no_such_subteam) — fix: correct APPROVERS',
    ]);
    // One approver left: an outcome-unknown payment could never be confirmed as not paid.
    expect(lines(r.stdout)).toContain(
      '! 1 approver: recording an outcome-unknown payment as not paid needs two different approvers, so it can never be confirmed — fix: add approvers to APPROVERS until at least two (three if approvers also request) can act',
    );
  });

  it('names a Redis that may evict keys or keeps nothing on disk', async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await admin.config('SET', 'appendonly', 'no');
    try {
      const r = await doctorFails();
      expect(failing(r.stdout)).toEqual([
        '✗ Redis maxmemory-policy is allkeys-lru: Redis may evict a request or a job when memory runs short — fix: set maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy noeviction)',
        '✗ Redis keeps nothing on disk: a restart would lose every pending request and queued job — fix: set appendonly yes (docker-compose.yml does)',
      ]);
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'appendonly', 'yes');
    }
  });

  it('puts each configuration problem on its own ✗ line, without the secret', async () => {
    const r = await doctorFails({ SLACK_BOT_TOKEN: 'not-a-bot-token', APPROVALS_CHANNEL: '#approvals' });
    expect(lines(r.stdout)).toEqual([
      '✗ configuration: APPROVALS_CHANNEL must be a channel id such as C0123ABCD (not a #name) — fix: see README.md, "Configuration"',
      '✗ configuration: SLACK_BOT_TOKEN must be a bot token starting with xoxb- — fix: see README.md, "Configuration"',
    ]);
    expect(r.stdout + r.stderr).not.toContain('not-a-bot-token');
  });

  it('says Redis does not answer, and still checks the rest', async () => {
    const r = await doctorFails({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(failing(r.stdout)).toEqual([
      '✗ Redis at 127.0.0.1:1 cannot be reached — fix: start Redis or correct REDIS_URL (REDIS_CLUSTER_NODES for a cluster)',
    ]);
    expect(lines(r.stdout).filter((l) => l.startsWith('✓')).length).toBeGreaterThan(5);
  });

  it('shows ✗ for a screening list not confirmed within SCREENING_MAX_AGE, and ✓ for a fresh one', async () => {
    const e = env();
    const file = new URL('../fixtures/screening/sdn.xml', import.meta.url).pathname;
    expect((await cli(['screening', 'load', file], e)).code).toBe(0);
    const fresh = await cli(['doctor'], e);
    expect(lines(fresh.stdout)).toContain('✓ the OFAC SDN list of 2026-11-27 (7 addresses), confirmed 0.0 days ago');
    await admin.hset(`${e.REDIS_PREFIX}:screening:meta`, 'confirmedAt', String(Date.now() - 8 * 86_400_000));
    const stale = await cli(['doctor'], e);
    expect(stale.code).toBe(1);
    expect(failing(stale.stdout)).toEqual([
      '✗ the OFAC SDN list of 2026-11-27 (7 addresses), confirmed 8.0 days ago: older than SCREENING_MAX_AGE (7.0 days) — fix: run `rampart screening load FILE`',
    ]);
  });
});
