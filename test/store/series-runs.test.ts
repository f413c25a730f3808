/**
 * A series' runs in Redis: a live series keeps its sealed call as the template and has no
 * execution; each run is created once as an approved approval under its run key S-n:k, however
 * many workers try at once; a skip and a creation racing for the same run never both win, and a
 * skipped run has no approval to send; a run that does not fit a velocity limit is skipped with
 * the reason, never created.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { sealHash } from '../../src/domain/approval.js';
import type { SealedRequest } from '../../src/domain/request.js';
import { ControlStore } from '../../src/store/controls.js';
import { RequestStore } from '../../src/store/requests.js';
import { SeriesStore } from '../../src/store/series.js';
import { createField, subjectOfField } from '../../src/store/velocity-lua.js';
import { buildFreshRequest } from '../support/factories.js';
import { deleteKeys, REDIS_URL } from '../support/harness.js';

const prefix = `test-series-runs-${randomUUID().slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const store = new RequestStore(redis, prefix);
const series = new SeriesStore(redis, store.keys);
afterAll(async () => {
  await redis.quit();
  await deleteKeys(prefix);
});

/** A series created as any approval (shape series) and voted live by one approver. */
async function liveSeries(): Promise<SealedRequest> {
  const { id } = await store.allocate('S');
  const sealed = buildFreshRequest(id, { requester: 'U0SREQ', requiredApprovals: 1 });
  expect((await store.create(sealed, { shape: 'series' })).outcome).toBe('created');
  const vote = await store.castVote(id, 'U0SAPPROVER');
  expect(vote.outcome).toBe('approved');
  expect(vote.state as string).toBe('live');
  return sealed;
}
const runOf = async (s: SealedRequest) => ({ ...s, id: (await store.allocate()).id });

describe('a series and its runs', () => {
  it('goes live at its quorum with its call kept as the run template, and nothing of it can start', async () => {
    const s = await liveSeries();
    const h = await redis.hgetall(store.keys.approval(s.id));
    expect(h).toMatchObject({ state: 'live', shape: 'series', n: '0', runSeal: sealHash(s.call) });
    expect(JSON.parse(h.runCall ?? '')).toEqual(s.call);
    expect(await redis.exists(store.keys.execution(`${s.id}.1`))).toBe(0);
    expect(await redis.zscore(store.keys.ready, s.id)).toBeNull();
  });

  it('creates run 1 once when eight workers create it at the same moment, approved with the series’ votes', async () => {
    const s = await liveSeries();
    const runs = await Promise.all(Array.from({ length: 8 }, () => runOf(s)));
    const answers = await Promise.all(runs.map((r) => series.createRun(s.id, 1, r)));
    const created = answers.filter((a) => a.outcome === 'created');
    expect(created).toHaveLength(1);
    const id = (created[0] as { id: string }).id;
    expect(answers.filter((a) => a.outcome === 'exists')).toEqual(Array(7).fill({ outcome: 'exists', id }));
    const run = await redis.hgetall(store.keys.approval(id));
    const seriesVotes = await redis.hget(store.keys.approval(s.id), 'votes');
    expect(run).toMatchObject({ state: 'approved', shape: 'single', series: s.id, run: '1', votes: seriesVotes });
    expect(Number(run.runAt)).toBe(Number(run.decidedAt));
    const exec = await redis.hgetall(store.keys.execution(`${id}.1`));
    expect(exec).toMatchObject({ state: 'queued', sealHash: sealHash(s.call) });
    expect(JSON.parse(exec.call ?? '')).toEqual(s.call);
    // Created once, started once: a second start finds it executing.
    expect((await store.executions.start(`${id}.1`, 'worker-a')).token).toBeDefined();
    expect((await store.executions.start(`${id}.1`, 'worker-b')).token).toBeUndefined();
    // The other workers' ids were never used.
    for (const r of runs.filter((r) => r.id !== id)) expect(await redis.exists(store.keys.approval(r.id))).toBe(0);
    expect(await series.runs(s.id)).toEqual([{ k: 1, status: 'created', id }]);
  });

  it('a skip and a creation racing for a run never both win; a skipped run has no approval', async () => {
    const s = await liveSeries();
    let skipsWon = 0;
    let createsWon = 0;
    for (let k = 1; k <= 12; k += 1) {
      const run = await runOf(s);
      const [skip, create] = await Promise.all([
        series.skipRun(s.id, k, { by: 'U0SAPPROVER' }),
        series.createRun(s.id, k, run),
      ]);
      if (skip.outcome === 'skipped') {
        skipsWon += 1;
        expect(create).toEqual({ outcome: 'skipped', why: 'skipped by U0SAPPROVER' });
        expect(await redis.exists(store.keys.approval(run.id), store.keys.execution(`${run.id}.1`))).toBe(0);
      } else {
        createsWon += 1;
        expect(create).toEqual({ outcome: 'created', id: run.id });
        // The loser is told which happened.
        expect(skip).toEqual({ outcome: 'created', id: run.id });
      }
    }
    expect(skipsWon + createsWon).toBe(12);
    // Skipping an already skipped run says so; creating it again refuses.
    const first = (await series.runs(s.id))[0];
    if (first?.status === 'skipped') {
      expect(await series.skipRun(s.id, 1, { by: 'U0OTHER' })).toEqual({ outcome: 'already_skipped' });
      expect((await series.createRun(s.id, 1, await runOf(s))).outcome).toBe('skipped');
    }
  });

  it('a skip before the creation always wins it, and is recorded on the series', async () => {
    const s = await liveSeries();
    expect(await series.skipRun(s.id, 2, { by: 'U0SAPPROVER' })).toEqual({ outcome: 'skipped' });
    const run = await runOf(s);
    expect(await series.createRun(s.id, 2, run)).toEqual({ outcome: 'skipped', why: 'skipped by U0SAPPROVER' });
    expect(await redis.exists(store.keys.approval(run.id))).toBe(0);
    expect(await series.runs(s.id)).toEqual([
      { k: 2, status: 'skipped', why: 'skipped by U0SAPPROVER', by: 'U0SAPPROVER' },
    ]);
  });

  it('creates no run of a series that is not live', async () => {
    const { id } = await store.allocate('S');
    const pending = buildFreshRequest(id, { requester: 'U0SREQ', requiredApprovals: 2 });
    await store.create(pending, { shape: 'series' });
    expect(await series.createRun(id, 1, await runOf(pending))).toEqual({ outcome: 'not_live', state: 'pending' });
    expect(await series.skipRun(id, 1, { by: 'U0SAPPROVER' })).toEqual({ outcome: 'not_live', state: 'pending' });
  });

  it('a run that does not fit a velocity limit is skipped with the reason and reserves nothing', async () => {
    const s = await liveSeries();
    const subject = subjectOfField(createField(s));
    if (!subject) throw new Error('the factory request moves money');
    const velocity = {
      ledgerPrefix: `${prefix}:velocity:`,
      retentionMs: 3_600_000,
      // Room for one run, not two.
      rules: [
        { wallet: subject.walletAlias, code: subject.code, limit: (subject.units * 3n) / 2n, windowMs: 3_600_000 },
      ],
    };
    const one = await runOf(s);
    expect(await series.createRun(s.id, 1, one, { velocity })).toEqual({ outcome: 'created', id: one.id });
    const two = await runOf(s);
    expect(await series.createRun(s.id, 2, two, { velocity })).toEqual({
      outcome: 'over_limit',
      limitIndex: 0,
      used: subject.units,
    });
    expect(await redis.exists(store.keys.approval(two.id))).toBe(0);
    expect((await series.runs(s.id))[1]).toEqual({ k: 2, status: 'skipped', why: 'over a velocity limit' });
    const ledger = `${prefix}:velocity:${subject.walletId}:${subject.code}`;
    expect(await redis.zrange(ledger, '0', '-1')).toEqual([one.id]);
    // Asked again, it stays skipped.
    expect((await series.createRun(s.id, 2, await runOf(s), { velocity })).outcome).toBe('skipped');
  });

  it('ending a series cancels its unsent run in the same step, gives its velocity back, and no run follows', async () => {
    const s = await liveSeries();
    const subject = subjectOfField(createField(s));
    if (!subject) throw new Error('the factory request moves money');
    const ledgerPrefix = `${prefix}:velocity-end:`;
    const velocity = {
      ledgerPrefix,
      retentionMs: 3_600_000,
      rules: [{ wallet: subject.walletAlias, code: subject.code, limit: subject.units * 10n, windowMs: 3_600_000 }],
    };
    const run = await runOf(s);
    expect((await series.createRun(s.id, 1, run, { velocity })).outcome).toBe('created');
    const ledger = `${ledgerPrefix}${subject.walletId}:${subject.code}`;
    expect(await redis.zrange(ledger, '0', '-1')).toEqual([run.id]);
    expect(await series.end(s.id, 'U0SREQ', ledgerPrefix)).toEqual({
      outcome: 'ended',
      run: { id: run.id, was: 'cancelled' },
    });
    expect(await redis.hget(store.keys.execution(`${run.id}.1`), 'state')).toBe('cancelled');
    expect((await store.executions.start(`${run.id}.1`, 'worker-a')).token).toBeUndefined();
    expect(await redis.zrange(ledger, '0', '-1')).toEqual([]);
    expect((await store.get(run.id))?.state).toBe('cancelled');
    expect(await series.createRun(s.id, 2, await runOf(s), { velocity })).toEqual({
      outcome: 'not_live',
      state: 'ended',
    });
    expect(await series.skipRun(s.id, 2, { by: 'U0SAPPROVER' })).toEqual({ outcome: 'not_live', state: 'ended' });
    expect(await series.end(s.id, 'U0SAPPROVER')).toEqual({ outcome: 'not_live', state: 'ended' });
  });

  it('an end racing its run’s start: the start sends nothing once the end won, and a late end is told it started', async () => {
    for (let i = 0; i < 8; i += 1) {
      const s = await liveSeries();
      const run = await runOf(s);
      await series.createRun(s.id, 1, run);
      const [ended, start] = await Promise.all([
        series.end(s.id, 'U0SAPPROVER'),
        store.executions.start(`${run.id}.1`, 'worker-a'),
      ]);
      if (start.token !== undefined) expect(ended).toEqual({ outcome: 'ended', run: { id: run.id, was: 'started' } });
      else {
        expect(ended).toEqual({ outcome: 'ended', run: { id: run.id, was: 'cancelled' } });
        expect(start.from).toBe('cancelled');
      }
    }
  });

  it('an end racing a run’s creation leaves nothing that can start', async () => {
    for (let i = 0; i < 8; i += 1) {
      const s = await liveSeries();
      const run = await runOf(s);
      // The end reads the last run first, so the creation lands between that read and its script.
      const [ended, created] = await Promise.all([series.end(s.id, 'U0SREQ'), series.createRun(s.id, 1, run)]);
      if (created.outcome === 'created')
        expect(ended).toEqual({ outcome: 'ended', run: { id: run.id, was: 'cancelled' } });
      else expect(created).toEqual({ outcome: 'not_live', state: 'ended' });
      expect((await store.executions.start(`${run.id}.1`, 'worker-a')).token).toBeUndefined();
    }
  });

  it('a run today’s rules refuse is skipped and the series paused in the same step; no later run is created', async () => {
    const s = await liveSeries();
    const run = await runOf(s);
    const why = 'needs a fresh approval: APPROVALS_REQUIRED is now 3';
    expect(await series.createRun(s.id, 1, run, { refused: { code: 'more_approvals', why } })).toEqual({
      outcome: 'paused_now',
      code: 'more_approvals',
      why,
    });
    expect(await redis.exists(store.keys.approval(run.id))).toBe(0);
    // The run's mark keeps the sentence its thread says; the history says it too.
    expect(await series.runs(s.id)).toEqual([{ k: 1, status: 'skipped', why }]);
    expect((await store.history(s.id)).at(-1)).toMatchObject({ event: 'run skipped', detail: `run 1: ${why}` });
    expect(await series.createRun(s.id, 2, await runOf(s))).toEqual({ outcome: 'paused' });
    expect(await series.createRun(s.id, 1, await runOf(s))).toEqual({ outcome: 'skipped', why });
  });

  it('creates no run while frozen: the series is held for the unfreeze, and the run is created once it lifts', async () => {
    const s = await liveSeries();
    const controls = new ControlStore(redis, prefix);
    await controls.setFreeze({ by: 'U0SAPPROVER', at: Date.now(), reason: 'drill' });
    const run = await runOf(s);
    try {
      expect(await series.createRun(s.id, 1, run)).toEqual({ outcome: 'frozen' });
      expect(await redis.exists(store.keys.approval(run.id))).toBe(0);
      expect(await series.runs(s.id)).toEqual([]);
      expect(await controls.heldSeries()).toContain(s.id);
      expect((await series.read(s.id)).held).toBe(1);
    } finally {
      await redis.del(store.keys.freeze);
    }
    expect(await series.createRun(s.id, 1, run)).toEqual({ outcome: 'created', id: run.id });
    await controls.woken([s.id]);
    expect(await controls.heldSeries()).not.toContain(s.id);
  });

  it('keeps the next run’s id ready on the series; an id another run took is replaced by it', async () => {
    const s = await liveSeries();
    expect((await series.read(s.id)).nextId).toBeUndefined();
    // The notice before run 1 readies its id, once.
    expect(await series.claimNotice(s.id, 1)).toBe(true);
    expect(await series.claimNotice(s.id, 1)).toBe(false);
    const ready = (await series.read(s.id)).nextId as string;
    expect(ready).toMatch(/^R-\d+$/);
    expect(await series.createRun(s.id, 1, { ...s, id: ready })).toEqual({ outcome: 'created', id: ready });
    const next = (await series.read(s.id)).nextId as string;
    expect(next).not.toBe(ready);
    // A worker that read the series before run 1 was created still holds run 1's id.
    expect(await series.createRun(s.id, 2, { ...s, id: ready })).toEqual({ outcome: 'created', id: next });
    expect((await store.get(ready))?.sealed.id).toBe(ready);
    expect((await store.get(next))?.sealed.id).toBe(next);
  });
});
