/**
 * `rampart api-keys create | list | revoke` against a real Redis under a unique
 * prefix: the key printed once, only its hash stored, wrong options refused by name.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-keys-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix, WALLETS: 'ops=wal_ops_7f3a,treasury=wal_t_1' };
let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await deleteKeys(prefix);
  await redis.quit();
});

const create = (...extra: string[]) =>
  cli(
    [
      'api-keys',
      'create',
      '--name',
      'erp',
      '--owner',
      'U0OWNER',
      '--scopes',
      'requests:create,requests:read',
      ...extra,
    ],
    env,
  );

describe('rampart api-keys', () => {
  it('prints the key once and stores only its hash; list shows it; revoke ends it', async () => {
    const made = await create('--wallets', 'ops', '--assets', 'base:usdc', '--max-amount', '5000', '--max-open', '5');
    expect(made.code).toBe(0);
    const token = /rmp_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/.exec(made.stdout)?.[0] ?? '';
    expect(token).not.toBe('');
    expect(made.stderr).toContain('shown only this once');
    const stored: unknown[] = [];
    for (const k of await redis.keys(`${prefix}:*`))
      stored.push((await redis.type(k)) === 'hash' ? await redis.hgetall(k) : await redis.smembers(k));
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(token.slice(17));
    expect((await create()).stderr).toContain('already exists');
    const listed = await cli(['api-keys', 'list'], env);
    expect(listed.stdout).toContain('erp');
    expect(listed.stdout).toContain('wallets ops, assets base:usdc, max 5000, open ≤ 5, known destinations only');
    expect(listed.stdout).toContain('active');
    expect((await cli(['api-keys', 'revoke', 'erp'], env)).stdout).toContain('Revoked API key erp.');
    expect((await cli(['api-keys', 'list'], env)).stdout).toContain('revoked');
    expect(lines((await cli(['api-keys', 'revoke', 'erp'], env)).stderr)).toHaveLength(1);
  });

  it('refuses wrong options by name before opening anything', async () => {
    const cases: Array<[string[], string]> = [
      [['--scopes', 'requests:write'], '--scopes must list some of'],
      [['--wallets', 'nowhere'], '--wallets "nowhere" is not a configured wallet alias'],
      [['--assets', 'base:doge'], '--assets'],
      [['--max-amount', '12,50'], '--max-amount'],
      [['--max-amount', '0'], '--max-amount must be more than zero'],
      [['--max-amount', '100.0000001'], '--max-amount 100.0000001 has 7 decimal places'],
      [['--expires', 'soon'], '--expires must be a duration'],
    ];
    for (const [args, text] of cases) {
      const argv = ['api-keys', 'create', '--name', 'x', '--owner', 'U0OWNER', '--scopes', 'requests:read', ...args];
      const r = await cli(argv, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(text);
    }
  });
});
