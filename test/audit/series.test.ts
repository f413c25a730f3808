/**
 * A series and its runs in the audit trail and the report: the series with its own state (live,
 * ended) and sealed run dates, each run named as run k of S-n, a skipped run with why, and who
 * ended it; the series itself is never counted as a payment (its runs are).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { SeriesStore } from '../../src/store/series.js';
import { cli } from '../cli/support.js';
import { sealedOf } from '../support/factories.js';
import { REDIS_URL } from '../support/harness.js';
import { cleanUp, exportJsonl } from './support.js';

const prefix = `test-audit-series-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix };
const HOUR = 3_600_000;
let redis: Redis;
let dir: string;
let seriesId = '';
let runId = '';

const call: ServiceCall = {
  kind: 'transfer',
  body: {
    wallet_id: 'wal_ops_7f3a',
    amount: 30,
    receiver: '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF',
    asset: 'base:usdc',
  },
};

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  dir = await mkdtemp(join(tmpdir(), 'rampart-audit-series-'));
  const store = new RequestStore(redis, prefix);
  const series = new SeriesStore(redis, store.keys);
  seriesId = (await store.allocate('S')).id;
  const t0 = Date.now() - HOUR;
  const sealed = sealedOf(seriesId, call, {
    schedule: {
      every: { unit: 'hours', n: 1 },
      at: undefined,
      zone: 'UTC',
      ends: { after: 3 },
      runs: [t0, t0 + HOUR, t0 + 2 * HOUR],
    },
  });
  await store.create(sealed, { shape: 'series' });
  await store.castVote(seriesId, 'U0APPROVER1');
  runId = (await store.allocate()).id;
  expect((await series.createRun(seriesId, 1, { ...sealed, id: runId })).outcome).toBe('created');
  const started = await store.executions.start(`${runId}.1`, 'worker-1');
  if (!started.token) throw new Error('not started');
  await store.executions.finish(`${runId}.1`, started.token, 'succeeded', { hash: '0xabc' });
  expect(await series.skipRun(seriesId, 2, { by: 'U0APPROVER2' })).toEqual({ outcome: 'skipped' });
  expect((await series.end(seriesId, 'U0REQUESTER', '', 'from the CLI')).outcome).toBe('ended');
});
afterAll(() => cleanUp(redis, prefix, dir));

describe('a series in the audit trail and the report', () => {
  it('the export has the series (its own state, run dates, each run, skip and end) and its run as run 1 of it', async () => {
    const { rows } = await exportJsonl<Record<string, unknown> & { history: Record<string, unknown>[] }>(dir, env);
    const s = rows.find((x) => x.id === seriesId);
    expect(s).toMatchObject({ state: 'ended', schedule: { runs: 3, zone: 'UTC', every: { unit: 'hours', n: 1 } } });
    expect((s?.schedule as { runDates: string[] } | undefined)?.runDates).toHaveLength(3);
    expect(s?.history.map((e) => [e.event, e.by, e.detail])).toEqual(
      expect.arrayContaining([
        ['run', undefined, `run 1: ${runId}`],
        ['run skipped', 'U0APPROVER2', 'run 2: skipped by U0APPROVER2'],
        ['ended', 'U0REQUESTER', 'from the CLI'],
      ]),
    );
    expect(rows.find((x) => x.id === runId)).toMatchObject({ state: 'succeeded', run: { series: seriesId, k: 1 } });
    const csv = join(dir, 'all.csv');
    expect((await cli(['audit', 'export', '--format', 'csv', '--out', csv], env)).code).toBe(0);
    const text = await readFile(csv, 'utf8');
    expect(text).toContain(`${seriesId},transfer,ended,`);
    expect(text).toContain('run skipped,U0APPROVER2,run 2: skipped by U0APPROVER2');
  });

  it('the report counts the run, not the series, names the run, and lists the series with its skip and end', async () => {
    const r = await cli(['report', '--format', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.totals).toEqual({ 'transfer succeeded': 1 });
    expect(report.payments).toEqual([expect.objectContaining({ id: runId, series: seriesId, run: 1 })]);
    expect(report.series).toEqual([
      expect.objectContaining({
        id: seriesId,
        state: 'ended',
        runs: [expect.objectContaining({ k: 1, id: runId })],
        skipped: [expect.objectContaining({ k: 2, why: 'skipped by U0APPROVER2', by: 'U0APPROVER2' })],
        ended: expect.objectContaining({ by: 'U0REQUESTER' }),
      }),
    ]);
    expect(report.series[0].schedule).toMatch(/^Every hour, 3 runs, 30\.00 USDC each to 0x99ED/);
    const csv = await cli(['report'], env);
    expect(csv.stdout).toContain(`${runId},transfer,succeeded,ops,USDC,30,`);
    expect(csv.stdout).toContain(`,${seriesId} run 1`);
    expect(csv.stdout).not.toContain(`${seriesId},transfer`);
  });
});
