/**
 * Passkeys from the CLI: the bootstrap enrolment link (only while nobody has a passkey), the
 * list, removal by server access, and `rampart verify` refusing what it cannot check.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/index.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { slackPasskeyNotices } from '../../src/adapters/slack/web-api/passkey-notices.js';
import type { Passkey } from '../../src/domain/passkey.js';
import { createLogger } from '../../src/log.js';
import { PasskeyStore } from '../../src/store/passkeys.js';
import { blocksText, deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-passkeys-${randomUUID().slice(0, 8)}`;
const env = {
  NODE_ENV: 'test',
  REDIS_URL,
  REDIS_PREFIX: prefix,
  STEP_UP_ABOVE: 'USDC=10000',
  PUBLIC_URL: 'https://rampart.example.com/pages',
};
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('rampart passkeys', () => {
  it('prints a one-time bootstrap link with its token in the fragment, and stores only its hash', async () => {
    const r = await cli(['passkeys', 'enrol-link', '--user', 'U0APPROVER1'], env);
    expect(r.code).toBe(0);
    const token = /^https:\/\/rampart\.example\.com\/pages\/passkey#([A-Za-z0-9_-]{43})$/.exec(r.stdout.trim())?.[1];
    expect(token).toBeDefined();
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.some((k) => k.includes(token ?? 'none'))).toBe(false);
    expect(JSON.stringify(await Promise.all(keys.map((k) => redis.hgetall(k))))).not.toContain(token);
  });

  it('refuses a bootstrap link once an approver has a passkey, in one sentence', async () => {
    await new PasskeyStore(redis, prefix).add(
      {
        id: 'cred-1',
        user: 'U0APPROVER1',
        publicKey: 'AAAA',
        aaguid: '00000000-0000-0000-0000-000000000000',
        browser: 'test',
        createdAt: 1,
        status: 'active',
        usableFrom: 0,
        approvedBy: 'cli',
      },
      0,
    );
    const r = await cli(['passkeys', 'enrol-link', '--user', 'U0APPROVER2'], env);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('already has a passkey');
  });

  it('lists and revokes; a bad user id is named', async () => {
    const listed = await cli(['passkeys', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ user: 'U0APPROVER1', id: 'cred-1', status: 'active' }]);
    const bad = await cli(['passkeys', 'revoke', '--user', 'bob'], env);
    expect(bad.code).not.toBe(0);
    expect(lines(bad.stderr)[0]).toContain('--user "bob" is not a Slack user id');
    const revoked = await cli(['passkeys', 'revoke', '--user', 'U0APPROVER1', '--id', 'cred-1'], env);
    expect(revoked.stdout).toContain('Removed 1 passkey');
    expect((await cli(['passkeys', 'list'], env)).stdout).toContain('No passkeys.');
  });

  it('verify names a request it cannot find', async () => {
    const r = await cli(['verify', 'R-999999'], env);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual([expect.stringContaining('No request R-999999')]);
  });
});

describe('rampart passkeys revoke tells the owner', () => {
  const BOT = 'xoxb-cli-test';
  const APPROVALS = 'C0APPROVALS';
  const OWNER = 'U0APPROVER2';
  let fake: FakeSlack;
  const pending = (id: string): Passkey => ({
    id,
    user: OWNER,
    publicKey: 'AAAA',
    aaguid: '00000000-0000-0000-0000-000000000000',
    browser: 'test browser',
    createdAt: 1,
    status: 'pending',
    usableFrom: Number.MAX_SAFE_INTEGER,
  });
  const slackEnv = (apiUrl: string) => ({
    ...env,
    SLACK_BOT_TOKEN: BOT,
    SLACK_SIGNING_SECRET: 'cli-test-signing-secret',
    SLACK_API_URL: apiUrl,
    APPROVALS_CHANNEL: APPROVALS,
  });

  beforeAll(async () => {
    fake = await startFakeSlack({
      botToken: BOT,
      people: [OWNER].map((id) => ({ id, name: id.toLowerCase(), real_name: id, tz: 'Africa/Lagos' })),
      channels: [{ id: APPROVALS, name: 'treasury-approvals' }],
    });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('sends the owner the "removed" message and redraws a pending passkey’s card without its button', async () => {
    const store = new PasskeyStore(redis, prefix);
    const p = pending('cred-pending');
    await store.add(p, 0);
    // The card as Rampart posts it when the passkey was registered with /passkey.
    const notices = slackPasskeyNotices(new WebClient(BOT, slackClientOptions(fake.apiUrl)), {
      approvalsChannel: APPROVALS,
      log: createLogger({ level: 'silent' }),
    });
    const card = await notices.requested(p);
    if (!card) throw new Error('no card');
    await store.setCard(OWNER, p.id, card);
    expect(JSON.stringify(fake.messages(APPROVALS).at(-1)?.blocks)).toContain('passkey_approve');

    const r = await cli(['passkeys', 'revoke', '--user', OWNER], slackEnv(fake.apiUrl));
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('Removed 1 passkey');
    const dms = fake.messages(OWNER).map((m) => m.text ?? '');
    expect(dms.at(-1)).toContain('removed from the server');
    const redrawn = fake.messages(APPROVALS).at(-1);
    expect(fake.messages(APPROVALS)).toHaveLength(1);
    expect(blocksText(redrawn)).toContain('Refused');
    expect(blocksText(redrawn)).toContain('from the server');
    expect(JSON.stringify(redrawn?.blocks)).not.toContain('passkey_approve');
  });

  it('still removes when Slack is unreachable, and says so in one line', async () => {
    await new PasskeyStore(redis, prefix).add(pending('cred-2'), 0);
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await cli(
      ['passkeys', 'revoke', '--user', OWNER, '--id', 'cred-2'],
      slackEnv(`http://127.0.0.1:${port}/api/`),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Removed 1 passkey');
    expect(lines(r.stderr)).toEqual([expect.stringContaining('was not told')]);
    expect(await new PasskeyStore(redis, prefix).list(OWNER)).toEqual([]);
  });
});
