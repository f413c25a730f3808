/**
 * `rampart report`: the report from stored records, as CSV rows or as JSON, naming an
 * unknown outcome not yet resolved; bad options get one line and the usage.
 */

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestStore } from '../../src/store/requests.js';
import { createSealed, transferOf } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-report-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix, VELOCITY_LIMITS: 'ops:USDC=1000/24h' };
let redis: Redis;
let store: RequestStore;

const call = transferOf;

/** pending → approved → executing → the given end, as a worker would leave it. */
async function payment(amount: number, end: 'succeeded' | 'unknown'): Promise<string> {
  const id = await createSealed(store, call(amount), { reason: 'report test' });
  expect(await store.vote(id, 'U0APPROVER1')).toBe('approved');
  const started = await store.executions.start(id, 'test-worker');
  if (!started.token) throw new Error('not started');
  const detail = end === 'unknown' ? { message: 'HTTP 500' } : { hash: '0xabc' };
  expect((await store.executions.finish(id, started.token, end, detail)).ok).toBe(true);
  return id;
}

let paid: string;
let unknown: string;
beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  store = new RequestStore(redis, prefix);
  paid = await payment(40.25, 'succeeded');
  unknown = await payment(7, 'unknown');
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('rampart report', () => {
  it('prints every payment of the window as CSV by default', async () => {
    const r = await cli(['report', '--since', '30d'], env);
    expect(r.code).toBe(0);
    const rows = lines(r.stdout);
    expect(rows[0]).toBe('id,kind,state,wallet,asset,amount,destination,at,approval_seconds,series_run');
    expect(rows.some((l) => l.startsWith(`${paid},transfer,succeeded,ops,USDC,40.25,`))).toBe(true);
    expect(rows.some((l) => l.startsWith(`${unknown},transfer,unknown,ops,USDC,7,`))).toBe(true);
  });

  it('prints the whole report as JSON, naming the unresolved unknown', async () => {
    const r = await cli(['report', '--since', '7d', '--format', 'json'], env);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      days: string[];
      outflowPerDay: Record<string, string[]>;
      unresolvedUnknown: { id: string }[];
      totals: Record<string, number>;
    };
    expect(report.days).toHaveLength(8);
    expect(report.outflowPerDay.USDC?.at(-1)).toBe('40.25');
    expect(report.unresolvedUnknown.map((p) => p.id)).toEqual([unknown]);
    expect(report.totals).toEqual({ 'transfer succeeded': 1, 'transfer unknown': 1 });
  });

  it('refuses a bad span or format with one line', async () => {
    const r = await cli(['report', '--since', '400d'], env);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)[0]).toContain('--since "400d" is not a number of days from 1d to 90d');
    const f = await cli(['report', '--format', 'xlsx'], env);
    expect(f.code).toBe(2);
    expect(lines(f.stderr)[0]).toContain('--format "xlsx" is not one of csv, json');
  });
});
