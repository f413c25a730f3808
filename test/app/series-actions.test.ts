import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { countingRedis } from '../../bench/counting-redis.js';
import { slackNotifier } from '../../src/adapters/slack/notifier.js';
import { approve } from '../../src/app/decide.js';
import { executeOne } from '../../src/app/execute-one.js';
import { notify } from '../../src/app/notices/notify.js';
import type { Notifier } from '../../src/app/notifier.js';
import { endSeries, type SeriesActionDeps, skipRun } from '../../src/app/series/actions.js';
import { comingUp, listSeries, showSeries } from '../../src/app/series/reads.js';
import { runDue } from '../../src/app/series/run-due.js';
import { cliActor, slackActor } from '../../src/domain/actor.js';
import { seriesActionSentence } from '../../src/domain/series-answers.js';
import { RequestStore } from '../../src/store/requests.js';
import { SeriesStore } from '../../src/store/series.js';
import { REDIS_URL } from '../support/harness.js';
import { A1, A2, MINUTE, REQUESTER, sealSeries, T0, useSeriesWorld, type World } from './support.js';

let w: World;
let deps: SeriesActionDeps & { service: World['deps']['service']; config: World['deps']['config'] };
const clock = useSeriesWorld('series-actions', (world, seriesDeps) => {
  w = world;
  deps = seriesDeps;
});
let amount = 5;
/** Each series pays its own amount, so the sandbox's POSTs are counted per series. */
const nextAmount = () => {
  amount += 0.01;
  return Math.round(amount * 100) / 100;
};

/** A series of three runs a minute apart from `t0`; live after one approval unless `pending`. */
const series = (pay: number, t0 = T0, pending = false) => sealSeries(w, pay, { first: t0, pending });

/** Runs every run the due calls queued, as the execute job would. */
async function executeQueued(): Promise<void> {
  for (const t of w.tries.splice(0)) await executeOne(w.exec(), t.id);
}

/**
 * The same deps with `hook` run just before the skip's or the end's script: what a competing
 * worker did between the use case's read and its script (the window a race lands in).
 */
function between(hook: () => Promise<unknown>): SeriesActionDeps {
  const real = deps.series;
  const series = Object.create(real) as SeriesStore;
  series.skipRun = async (...a: Parameters<SeriesStore['skipRun']>) => {
    await hook();
    return real.skipRun(...a);
  };
  series.end = async (...a: Parameters<SeriesStore['end']>) => {
    await hook();
    return real.end(...a);
  };
  return { ...deps, series };
}

/** A live series of a fresh amount, its first run due now. */
async function dueSeries(): Promise<{ pay: number; id: string }> {
  const pay = nextAmount();
  const id = await series(pay);
  clock.at = T0;
  return { pay, id };
}

/** Deps whose skip or end lets run 1 of `id` be created first (as another worker would); its id once it is. */
function creatingRun(id: string): { between: SeriesActionDeps; id: string } {
  const made = {
    id: '',
    between: between(async () => {
      const due = await runDue(deps, id);
      if (due.outcome === 'created') made.id = due.id;
    }),
  };
  return made;
}

/**
 * What the notify job posts in the series' thread through the Slack notifier (its text as Slack
 * gets it), run twice (a retried job posts nothing more).
 */
async function threadLines(id: string, kind: 'series-ended' | 'run-skipped'): Promise<string[]> {
  const lines: string[] = [];
  const client = {
    chat: {
      postMessage: async (m: { text: string }) => {
        lines.push(m.text);
        return { ok: true, ts: '2.000001' };
      },
    },
  } as unknown as WebClient;
  const notifier: Notifier = {
    ...slackNotifier({ client, approvalsChannel: 'C0APPROVALS', log: w.deps.log }),
    updateCard: async () => {},
  };
  await w.store.setCard(id, { channel: 'C0APPROVALS', ts: '1.000001' });
  const notifyDeps = {
    notifier,
    store: w.store,
    log: w.deps.log,
    approvalsChannel: 'C0APPROVALS',
    runMarks: (seriesId: string) => deps.series.runs(seriesId),
  };
  for (let i = 0; i < 2; i += 1) await notify(notifyDeps, { requestId: id, kind });
  return lines;
}

const say = (o: Parameters<typeof seriesActionSentence>[0]) => seriesActionSentence(o);

describe('who may skip and end', () => {
  it('any approver skips a run; the requester and anyone else may not, and nothing is recorded', async () => {
    const id = await series(nextAmount());
    expect(say(await skipRun(deps, slackActor(REQUESTER), id, 2))).toBe(
      `Only an approver can skip a run of ${id}; ask one of them.`,
    );
    expect(say(await skipRun(deps, slackActor('U0STRANGER'), id, 2))).toBe(
      `Only an approver can skip a run of ${id}; ask one of them.`,
    );
    expect(await deps.series.runs(id)).toEqual([]);
    expect(say(await skipRun(deps, slackActor(A2), id, 4))).toBe(`${id} has runs 1 to 3; there is no run 4.`);
    expect(say(await skipRun(deps, slackActor(A2), 'S-999999', 1))).toBe('There is no series S-999999; check its id.');
  });

  it('the requester (not an approver) may end; someone else may not', async () => {
    const id = await series(nextAmount());
    expect(await endSeries(deps, slackActor('U0STRANGER'), id)).toMatchObject({
      kind: 'refused',
      code: 'not_an_approver',
    });
    expect((await deps.series.read(id)).endedAt).toBeUndefined();
    expect(say(await endSeries(deps, cliActor(REQUESTER), id))).toBe(`${id} ended; no more runs will be created.`);
    const ended = (await w.store.history(id)).find((h) => h.event === 'ended');
    expect(ended).toMatchObject({ by: REQUESTER, detail: 'from the CLI' });
    expect(w.notified).toContainEqual({ requestId: id, kind: 'series-ended' });
    expect(say(await endSeries(deps, slackActor(A2), id))).toBe(`${id} already ended; no more runs will be created.`);
    expect(say(await skipRun(deps, slackActor(A2), id, 3))).toBe(`${id} already ended; no more runs will be created.`);
  });

  it('a pending series has nothing to skip or end', async () => {
    const id = await series(nextAmount(), T0, true);
    expect(say(await skipRun(deps, slackActor(A2), id, 1))).toBe(
      `${id} is still waiting for its approval; deny it or let its requester cancel it; there is nothing to skip or end.`,
    );
    expect(await endSeries(deps, slackActor(A2), id)).toMatchObject({ kind: 'refused', code: 'not_live' });
  });
});

describe('a skip', () => {
  it('is recorded with who and where, queues the thread line, and its run sends nothing', async () => {
    const pay = nextAmount();
    const id = await series(pay);
    const skipped = await skipRun(deps, cliActor(A2), id, 2);
    expect(say(skipped)).toBe(`Run 2 of ${id} skipped; nothing will be sent for it.`);
    expect(w.notified).toContainEqual({ requestId: id, kind: 'run-skipped' });
    expect((await w.store.history(id)).at(-1)).toMatchObject({
      event: 'run skipped',
      by: A2,
      detail: `run 2: skipped by ${A2} (from the CLI)`,
    });
    // A second skip is told who skipped it first.
    expect(say(await skipRun(deps, slackActor(A1), id, 2))).toBe(`Run 2 was already skipped by ${A2}.`);
    // The thread names the person as Slack mentions one, from the mark's fields.
    expect(await threadLines(id, 'run-skipped')).toEqual([`Run 2 was skipped by <@${A2}> (from the CLI).`]);
    for (const t of [T0, T0 + MINUTE, T0 + 2 * MINUTE]) {
      clock.at = t;
      await runDue(deps, id);
      await executeQueued();
    }
    expect(w.received(pay)).toBe(2);
    const shown = await showSeries(deps, id);
    expect(shown?.skipped).toEqual([
      {
        k: 2,
        at: T0 + MINUTE,
        status: 'skipped',
        by: A2,
        source: 'from the CLI',
        why: `skipped by ${A2} (from the CLI)`,
      },
    ]);
    expect(shown?.created.map((r) => r.k)).toEqual([1, 3]);
  });

  it('written before its fields (its text alone) still reads: who skipped it, in the list, the answer and the thread', async () => {
    const id = await series(nextAmount());
    clock.at = T0 - MINUTE;
    expect(await skipRun(deps, cliActor(A2), id, 3)).toMatchObject({ kind: 'skipped' });
    // As the version before stored it: its text alone.
    const old = { k: 3, status: 'skipped', why: `skipped by ${A2} (from the CLI)` };
    await w.redis.hset(w.store.keys.approval(id), 'run:3', JSON.stringify(old));
    expect((await showSeries(deps, id))?.skipped).toEqual([
      { ...old, at: T0 + 2 * MINUTE, by: A2, source: 'from the CLI' },
    ]);
    expect(seriesActionSentence(await skipRun(deps, slackActor(A1), id, 3), (u) => `<@${u}>`)).toBe(
      `Run 3 was already skipped by <@${A2}>.`,
    );
    expect(await threadLines(id, 'run-skipped')).toEqual([`Run 3 was skipped by <@${A2}> (from the CLI).`]);
  });

  it('of a run already created is refused with the run’s id', async () => {
    const id = await series(nextAmount());
    clock.at = T0;
    const due = await runDue(deps, id);
    w.tries.splice(0);
    if (due.outcome !== 'created') throw new Error(`not created: ${due.outcome}`);
    expect(say(await skipRun(deps, slackActor(A2), id, 1))).toBe(
      `Run 1 was already created as ${due.id} and is on its way; cancel it on its card.`,
    );
  });

  it('losing the race to the run’s creation is told the run’s id; the run is sent once', async () => {
    const { pay, id } = await dueSeries();
    const created = creatingRun(id);
    const lost = await skipRun(created.between, slackActor(A2), id, 1);
    expect(say(lost)).toBe(`Run 1 was already created as ${created.id} and is on its way; cancel it on its card.`);
    await executeQueued();
    expect(w.received(pay)).toBe(1);
  });

  it('racing the run’s creation at once: exactly one wins, and a won skip sends nothing', async () => {
    for (let i = 0; i < 4; i += 1) {
      const { pay, id } = await dueSeries();
      const [skip, due] = await Promise.all([skipRun(deps, slackActor(A2), id, 1), runDue(deps, id)]);
      await executeQueued();
      if (skip.kind === 'skipped') {
        expect(due.outcome === 'none' || due.outcome === 'skipped').toBe(true);
        expect(w.received(pay)).toBe(0);
      } else {
        if (due.outcome !== 'created') throw new Error(`neither won: ${due.outcome}`);
        expect(say(skip)).toBe(`Run 1 was already created as ${due.id} and is on its way; cancel it on its card.`);
        expect(w.received(pay)).toBe(1);
      }
    }
  });
});

describe('an end', () => {
  it('cancels a created but unsent run in the same step and says so; nothing is sent', async () => {
    const { pay, id } = await dueSeries();
    const due = await runDue(deps, id);
    if (due.outcome !== 'created') throw new Error(`not created: ${due.outcome}`);
    const queued = w.tries.splice(0);
    const ended = await endSeries(deps, slackActor(A2), id);
    expect(say(ended)).toBe(`${id} ended; run 1 (${due.id}) cancelled, nothing sent.`);
    for (const t of queued) await executeOne(w.exec(), t.id);
    expect(w.received(pay)).toBe(0);
    expect((await w.store.get(due.id))?.state).toBe('cancelled');
    expect(w.notified).toContainEqual({ requestId: due.id, kind: 'outcome' });
    expect((await w.store.history(id)).map((h) => h.event)).toContain('run cancelled');
    const shown = await showSeries(deps, id);
    expect(shown).toMatchObject({ state: 'ended', endedBy: A2, next: [] });
    // The thread's line, once however many times the job runs.
    expect(await threadLines(id, 'series-ended')).toEqual([
      `${id} ended by <@${A2}>; run 1 (${due.id}) cancelled, nothing sent. No more runs will be created.`,
    ]);
  });

  it('losing the race to its run’s start is told the run goes on; the run is sent once', async () => {
    const { pay, id } = await dueSeries();
    const due = await runDue(deps, id);
    if (due.outcome !== 'created') throw new Error(`not created: ${due.outcome}`);
    const ended = await endSeries(between(executeQueued), slackActor(A2), id);
    expect(say(ended)).toBe(`${id} ended; run 1 (${due.id}) had already started and goes on: see its card.`);
    expect(w.received(pay)).toBe(1);
  });

  it('a run created between its read and its script is cancelled in the end’s step: nothing sent', async () => {
    const { pay, id } = await dueSeries();
    const created = creatingRun(id);
    const ended = await endSeries(created.between, cliActor(REQUESTER), id);
    expect(say(ended)).toBe(`${id} ended; run 1 (${created.id}) cancelled, nothing sent.`);
    await executeQueued();
    expect(w.received(pay)).toBe(0);
  });

  it('racing its run’s start at once: an end that wins sends nothing, one that loses says the run goes on', async () => {
    for (let i = 0; i < 4; i += 1) {
      const { pay, id } = await dueSeries();
      const due = await runDue(deps, id);
      if (due.outcome !== 'created') throw new Error(`not created: ${due.outcome}`);
      const queued = w.tries.splice(0);
      const [ended] = await Promise.all([
        endSeries(deps, slackActor(A2), id),
        ...queued.map((t) => executeOne(w.exec(), t.id)),
      ]);
      if (ended.kind === 'ended' && ended.run?.was === 'cancelled') {
        expect(say(ended)).toBe(`${id} ended; run 1 (${due.id}) cancelled, nothing sent.`);
        expect(w.received(pay)).toBe(0);
      } else {
        expect(say(ended)).toBe(`${id} ended; run 1 (${due.id}) had already started and goes on: see its card.`);
        expect(w.received(pay)).toBe(1);
      }
    }
  });
});

describe('the reads', () => {
  // A day later: the other tests' runs are all in the past.
  const T1 = T0 + 86_400_000;
  it('lists live and pending series before ended ones; Coming up is the next runs soonest first', async () => {
    const later = await series(nextAmount(), T1 + 10 * MINUTE);
    const sooner = await series(nextAmount(), T1 + 5 * MINUTE);
    const pending = await series(nextAmount(), T1 + MINUTE, true);
    clock.at = T1;
    await skipRun(deps, slackActor(A2), sooner, 1);
    const coming = await comingUp(deps, 3);
    expect(coming.map((r) => [r.seriesId, r.k])).toEqual([
      [sooner, 2],
      [sooner, 3],
      [later, 1],
    ]);
    expect(coming[0]).toMatchObject({ at: T1 + 6 * MINUTE });
    expect(coming[0]?.pays).toMatch(/^\d+\.\d\d USDC to /);
    expect(coming.map((r) => r.seriesId)).not.toContain(pending);
    const listed = await listSeries(deps);
    const states = listed.map((v) => v.state);
    expect(states.indexOf('ended')).toBeGreaterThan(states.lastIndexOf('pending'));
    expect(listed.find((v) => v.id === later)).toMatchObject({
      state: 'live',
      cadence: 'Every minute',
      runs: 3,
      next: [
        { k: 1, at: T1 + 10 * MINUTE },
        { k: 2, at: T1 + 11 * MINUTE },
        { k: 3, at: T1 + 12 * MINUTE },
      ],
    });
  });

  it('lists a series created before the series index, once, then reads the index alone', async () => {
    const old = await series(nextAmount(), T1 + 20 * MINUTE);
    // As Rampart stored it before create.lua kept the series index: only the recent index has it.
    await w.redis.zrem(w.store.keys.series, old);
    await w.redis.del(w.store.keys.seriesIndexed);
    expect((await listSeries(deps)).map((v) => v.id)).toContain(old);
    expect(await w.redis.zscore(w.store.keys.series, old)).not.toBeNull();
    // Once indexed, a new series is listed from what its create wrote, newest first.
    const fresh = await series(nextAmount(), T1 + 30 * MINUTE);
    const ids = await deps.series.ids();
    expect(ids.slice(0, 2)).toEqual([fresh, old]);
    expect(ids.map((id) => Number(id.slice(2)))).toEqual(ids.map((id) => Number(id.slice(2))).sort((a, b) => b - a));
  });

  it('lists a series a process without the index created after that first list, once approved', async () => {
    await listSeries(deps); // the older series added: the index is marked done
    const late = await series(nextAmount(), T1 + 50 * MINUTE, true);
    // As a web process of a version whose create.lua did not write the series index stores it.
    await w.redis.zrem(w.store.keys.series, late);
    expect(await w.redis.exists(w.store.keys.seriesIndexed)).toBe(1);
    expect((await listSeries(deps)).map((v) => v.id)).not.toContain(late);
    // At its quorum a series schedules its first run's job (not run here).
    const queues = { ...w.deps.queues, scheduleSeriesRun: async () => {} } as typeof w.deps.queues;
    expect(await approve({ ...w.deps, queues }, late, A1)).toMatchObject({ kind: 'approved' });
    expect((await listSeries(deps)).find((v) => v.id === late)).toMatchObject({ state: 'live' });
    // Scored as create.lua scores it: by the id's number.
    expect(await w.redis.zscore(w.store.keys.series, late)).toBe(late.slice(2));
  });

  it('lists a live series that processes without the index created and approved, from its next due run', async () => {
    await listSeries(deps);
    const early = await series(nextAmount(), T1 + 60 * MINUTE);
    await w.redis.zrem(w.store.keys.series, early);
    expect((await listSeries(deps)).map((v) => v.id)).not.toContain(early);
    clock.at = T1 + 60 * MINUTE;
    expect(await runDue(deps, early)).toMatchObject({ k: 1, outcome: 'created' });
    expect((await listSeries(deps)).find((v) => v.id === early)).toMatchObject({ state: 'live' });
    expect(await w.redis.zscore(w.store.keys.series, early)).toBe(early.slice(2));
  });

  it('reads each series once: the list, one series and Coming up never scan the approvals', async () => {
    await listSeries(deps); // the series index is built
    const ended = await series(nextAmount(), T1 + 40 * MINUTE);
    await endSeries(deps, slackActor(A2), ended);
    const counted = countingRedis(REDIS_URL);
    const store = new RequestStore(counted.redis, w.prefix);
    const counting = { ...deps, store, series: new SeriesStore(counted.redis, store.keys, () => clock.at) };
    try {
      // Scripts and connection warm: counted from the second list on.
      await listSeries(counting);
      counted.reset();
      const listed = await listSeries(counting);
      expect(listed.length).toBeGreaterThan(2);
      const byName = Object.fromEntries(counted.tally.byName);
      // One hash read per series listed, and the ended ones' history for who ended them.
      expect(byName).toMatchObject({ HGETALL: listed.length, ZREVRANGE: 1 });
      expect(byName.ZSCAN).toBeUndefined();
      expect(byName.HMGET).toBeUndefined();
      // The index, every series at once, then the ended ones' histories.
      expect(counted.tally.roundTrips).toBe(3);
      counted.reset();
      expect(await showSeries(counting, ended)).toMatchObject({ state: 'ended', endedBy: A2 });
      expect(counted.tally.byName.get('HGETALL')).toBe(1);
      expect(counted.tally.roundTrips).toBe(2);
      counted.reset();
      await comingUp(counting);
      const open = (await w.store.openIds()).filter((id) => id.startsWith('S-')).length;
      expect(counted.tally.byName.get('HGETALL')).toBe(open);
      expect(counted.tally.roundTrips).toBe(2);
    } finally {
      await counted.redis.quit();
    }
  });
});
