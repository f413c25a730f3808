/**
 * `rampart requests` and `requests show` against a real Redis under a unique prefix, holding
 * requests written by the same RequestStore the app uses.
 */

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHash, type ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { createSealed } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-${randomUUID().slice(0, 8)}`;
// Fixed times, so the table's Created column is known.
const CREATED = Date.UTC(2026, 10, 21, 9, 30, 0);
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
let redis: Redis;
let pendingId: string;
let approvedId: string;

const call: ServiceCall = {
  kind: 'transfer',
  body: {
    wallet_id: 'wal_ops_7f3a',
    amount: 1250.5,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    asset: 'base:usdc',
  },
};

async function createRequest(store: RequestStore, createdAt: number, reason: string): Promise<string> {
  return createSealed(store, call, { reason, createdAt });
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  let now = CREATED;
  const store = new RequestStore(redis, prefix, () => now);
  pendingId = await createRequest(store, CREATED, 'vendor invoice 118');
  approvedId = await createRequest(store, CREATED + 60_000, 'payroll top-up');
  now = CREATED + 120_000;
  expect(await store.vote(approvedId, 'U0APPROVER1')).toBe('approved');
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('rampart requests', () => {
  it('lists recent requests newest first in an aligned table', async () => {
    const r = await cli(['requests'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'ID      Kind      State       Amount  Asset      Requester    Created',
        `${approvedId}  transfer  approved  1,250.50  base:usdc  U0REQUESTER  2026-11-21 09:31:00Z`,
        `${pendingId}  transfer  pending   1,250.50  base:usdc  U0REQUESTER  2026-11-21 09:30:00Z`,
        '',
      ].join('\n'),
    );
  });

  it('filters by --state and prints summaries as JSON with --json', async () => {
    const r = await cli(['requests', '--state', 'pending', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({
        id: pendingId,
        kind: 'transfer',
        state: 'pending',
        amount: 1250.5,
        asset: 'base:usdc',
        wallet: 'ops (wal_ops_7f3a)',
        requester: 'U0REQUESTER',
        createdAt: '2026-11-21T09:30:00.000Z',
      }),
    ]);
  });

  it('exits 2 for a state that does not exist', async () => {
    const r = await cli(['requests', '--state', 'stuck'], env);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)[1]).toBe('usage: rampart requests [--state STATE] [--limit N] [--json]');
  });
});

describe('rampart requests show', () => {
  it('prints the request and its full history: when, event, by, detail', async () => {
    const r = await cli(['requests', 'show', approvedId.toLowerCase()], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Request    ${approvedId}`);
    expect(r.stdout).toContain('Amount     1,250.50 USDC (base:usdc)');
    expect(r.stdout).toContain('To         0x99ED2e97162533BA814aF8092b93b9a3090DEdcF');
    expect(r.stdout).toContain('Approvals  1 of 1');
    const history = r.stdout.split('History\n')[1];
    expect(history).toBe(
      [
        'When                  Event      By           Detail',
        '2026-11-21 09:31:00Z  requested  U0REQUESTER  payroll top-up',
        '2026-11-21 09:32:00Z  approval   U0APPROVER1  —',
        '2026-11-21 09:32:00Z  approved   U0APPROVER1  —',
        '2026-11-21 09:32:00Z  queued     —            —',
        '',
      ].join('\n'),
    );
  });

  it('prints the record and its history as JSON with --json', async () => {
    const r = await cli(['requests', 'show', pendingId, '--json'], env);
    const shown = JSON.parse(r.stdout) as { id: string; hash: string; history: unknown[] };
    expect(shown).toMatchObject({ id: pendingId, state: 'pending', hash: callHash(call), rule: '1 approval' });
    expect(shown.history).toEqual([
      { at: '2026-11-21T09:30:00.000Z', event: 'requested', by: 'U0REQUESTER', detail: 'vendor invoice 118' },
    ]);
  });

  it('exits 1 for a request that is not there, 2 for a malformed id', async () => {
    const missing = await cli(['requests', 'show', 'R-999999'], env);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual([`rampart: No request R-999999 under REDIS_PREFIX "${prefix}".`]);
    const malformed = await cli(['requests', 'show', '1001'], env);
    expect(malformed.code).toBe(2);
  });

  it('exits 1 with one line, without the password, when Redis cannot be reached', async () => {
    const r = await cli(['requests'], { ...env, REDIS_URL: 'redis://:hunter2@127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      'rampart: Redis at 127.0.0.1:1 cannot be reached; start it or correct REDIS_URL.',
    ]);
  });
});
