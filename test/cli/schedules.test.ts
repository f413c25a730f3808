/**
 * `rampart schedules list|show|skip|end`: the same use cases as the series card's buttons, against
 * a real Redis; `--as` names the person and the history says "from the CLI". A refusal is one
 * sentence on stderr and exit 1; bad arguments exit 2 with the usage line.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../src/domain/request.js';
import { RequestStore } from '../../src/store/requests.js';
import { SeriesStore } from '../../src/store/series.js';
import { transferOf } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';
import { storedLiveSeries } from '../support/series.js';
import { cli, lines } from './support.js';

const prefix = `test-cli-schedules-${randomUUID().slice(0, 8)}`;
const env = { NODE_ENV: 'test', REDIS_URL, REDIS_PREFIX: prefix, APPROVERS: 'U0APPROVER1,U0APPROVER2' };
let redis: Redis;
let store: RequestStore;
let series: SeriesStore;

const call: ServiceCall = transferOf(25);
const _DAY = 86_400_000;

/** A series of three daily runs from tomorrow, live after one approval. */
const liveSeries = () => storedLiveSeries(store, call);

beforeAll(() => {
  redis = new Redis(REDIS_URL);
  store = new RequestStore(redis, prefix);
  series = new SeriesStore(redis, store.keys);
});
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

describe('rampart schedules', () => {
  it('skip: an approver skips a run, from the CLI; a second skip and a non-approver are refused (exit 1)', async () => {
    const id = await liveSeries();
    const done = await cli(['schedules', 'skip', id, '2', '--as', 'U0APPROVER2'], env);
    expect(done).toMatchObject({ code: 0, stderr: '' });
    expect(done.stdout.trim()).toBe(`Run 2 of ${id} skipped; nothing will be sent for it.`);
    expect((await store.history(id)).at(-1)).toMatchObject({
      event: 'run skipped',
      by: 'U0APPROVER2',
      detail: 'run 2: skipped by U0APPROVER2 (from the CLI)',
    });
    const again = await cli(['schedules', 'skip', id, '2', '--as', 'U0APPROVER1'], env);
    expect(again.code).toBe(1);
    expect(lines(again.stderr)).toEqual(['rampart: Run 2 was already skipped by U0APPROVER2.']);
    const requester = await cli(['schedules', 'skip', id, '3', '--as', 'U0REQUESTER'], env);
    expect(requester.code).toBe(1);
    expect(lines(requester.stderr)).toEqual([`rampart: Only an approver can skip a run of ${id}; ask one of them.`]);
    expect(await series.runs(id)).toEqual([
      {
        k: 2,
        status: 'skipped',
        why: 'skipped by U0APPROVER2 (from the CLI)',
        by: 'U0APPROVER2',
        source: 'from the CLI',
      },
    ]);
  });

  it('end: the requester ends it and its created, unsent run is cancelled; a second end is told it ended', async () => {
    const id = await liveSeries();
    const { id: runId } = await store.allocate();
    const sealed = await store.get(id);
    if (!sealed) throw new Error('no series');
    expect((await series.createRun(id, 1, { ...sealed.sealed, id: runId })).outcome).toBe('created');
    const done = await cli(['schedules', 'end', id, '--as', 'U0REQUESTER', '--json'], env);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      kind: 'ended',
      run: { k: 1, id: runId, was: 'cancelled' },
      sentence: `${id} ended; run 1 (${runId}) cancelled, nothing sent.`,
    });
    expect((await store.get(runId))?.state).toBe('cancelled');
    expect((await store.history(id)).find((h) => h.event === 'ended')).toMatchObject({
      by: 'U0REQUESTER',
      detail: 'from the CLI',
    });
    const again = await cli(['schedules', 'end', id, '--as', 'U0APPROVER1'], env);
    expect(again.code).toBe(1);
    expect(lines(again.stderr)).toEqual([`rampart: ${id} already ended; no more runs will be created.`]);
    const stranger = await cli(['schedules', 'end', await liveSeries(), '--as', 'U0STRANGER'], env);
    expect(stranger.code).toBe(1);
    expect(lines(stranger.stderr)[0]).toMatch(/^rampart: Only an approver or the requester of S-\d+ can end it/);
  });

  it('list and show: the schedule, runs created with their ids, skipped with why, and those to come', async () => {
    const id = await liveSeries();
    await cli(['schedules', 'skip', id, '1', '--as', 'U0APPROVER1'], env);
    const list = await cli(['schedules', 'list'], env);
    expect(list.code).toBe(0);
    const row = lines(list.stdout).find((l) => l.startsWith(`${id} `)) ?? '';
    expect(row).toMatch(/live\s+Every day at 09:00 UTC\s+25\.00 USDC to 0x99ED…EdcF\s+3\s+0\s+1\s+run 2 at /);
    const show = await cli(['schedules', 'show', id.toLowerCase()], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Every day at 09:00 UTC, 3 runs, 25.00 USDC each to 0x99ED…EdcF, 75.00 in all');
    expect(show.stdout).toMatch(/1 {2}\S+ \S+Z {2}skipped {2}skipped by U0APPROVER1 \(from the CLI\)/);
    expect(show.stdout).toMatch(/3 {2}\S+ \S+Z {2}to come/);
    const json = JSON.parse((await cli(['schedules', 'show', id, '--json'], env)).stdout);
    expect(json).toMatchObject({ id, state: 'live', runs: 3, skipped: [{ k: 1 }], next: [{ k: 2 }, { k: 3 }] });
  });

  it('bad arguments exit 2 with the usage line; an unknown series exits 1', async () => {
    const noAs = await cli(['schedules', 'skip', 'S-1', '2'], env);
    expect(noAs.code).toBe(2);
    expect(noAs.stderr).toContain('missing --as');
    const badRun = await cli(['schedules', 'skip', 'S-1', 'two', '--as', 'U0APPROVER1'], env);
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toContain('"two" is not a run number such as 3');
    const badId = await cli(['schedules', 'end', 'R-12', '--as', 'U0APPROVER1'], env);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('"R-12" is not a series id such as S-12');
    const missing = await cli(['schedules', 'show', 'S-999999'], env);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual([`rampart: No series S-999999 under REDIS_PREFIX "${prefix}".`]);
    const none = await cli(['schedules', 'end', 'S-999999', '--as', 'U0APPROVER1'], env);
    expect(lines(none.stderr)).toEqual(['rampart: There is no series S-999999; check its id.']);
  });
});
