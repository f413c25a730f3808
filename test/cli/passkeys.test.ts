/**
 * Issue 22 from the CLI: the bootstrap enrolment link (only while nobody has a passkey), the
 * list, removal by server access, and `rampart verify` refusing what it cannot check.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasskeyStore } from '../../src/store/passkeys.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
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
